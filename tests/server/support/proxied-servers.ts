import type { ComposedServer } from '@/composition/server/server.composition'
import { JSON_HEADERS, useTwoServers, type TwoServers } from '../server-fixture'
import type { TestStoreKind } from '../../support/test-databases'

/**
 * Two servers on a fresh database of `kind` for each test of the describe it is called in,
 * behind one proxy on loopback (TRUST_PROXY), with `env` besides.
 */
export function proxiedServers(
  kind: TestStoreKind,
  env: Readonly<Record<string, string>> = {},
): TwoServers {
  return useTwoServers(kind, { env: { TRUST_PROXY: 'loopback', ...env }, perTest: true })
}

/** A request to `server` from the visitor at address `from`, through the proxy. */
export function sendFrom(
  server: ComposedServer,
  from: string,
  method: string,
  url: string,
  payload?: object,
  headers: Readonly<Record<string, string>> = {},
) {
  return server.app.inject({
    method: method as 'GET',
    url,
    headers: {
      ...(payload === undefined ? {} : JSON_HEADERS),
      'x-forwarded-for': from,
      ...headers,
    },
    ...(payload === undefined ? {} : { payload }),
  })
}
