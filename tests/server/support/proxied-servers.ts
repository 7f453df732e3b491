import type { ComposedServer } from '@/composition/server/server.composition'
import { composeTestServer, JSON_HEADERS, type TestDatabase } from '../server-fixture'
import type { TestStoreKind } from '../../support/test-databases'

/** Two servers on one fresh database, behind one proxy that names each visitor's address. */
export interface ProxiedServers {
  readonly database: TestDatabase
  readonly a: ComposedServer
  readonly b: ComposedServer
}

/**
 * Sets up, for each test of the describe it is called in, two servers on a fresh database of
 * `kind` that trust a proxy on loopback (TRUST_PROXY), with `env` besides; read them from the
 * returned object inside the tests.
 */
export function proxiedServers(
  kind: TestStoreKind,
  env: Readonly<Record<string, string>> = {},
): ProxiedServers {
  const servers = {} as { database: TestDatabase; a: ComposedServer; b: ComposedServer }
  beforeEach(async () => {
    servers.database = await kind.create()
    const settings = { DATABASE_URL: servers.database.url, TRUST_PROXY: 'loopback', ...env }
    servers.a = await composeTestServer(settings)
    servers.b = await composeTestServer(settings)
  })
  afterEach(async () => {
    await servers.a.close()
    await servers.b.close()
    await servers.database.dispose()
  })
  return servers
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
