import { OPERATOR } from '@/domain/editor'
import type { AddressInfo } from 'node:net'
import { created } from '@/domain/rules/news-history.rules'
import type { ComposedServer, ComposeOptions } from '@/composition/server/server.composition'
import { TOKENS } from '@/composition/server/server.tokens'
import { useTwoServers, type TwoServers } from '../server-fixture'
import type { TestStoreKind } from '../../support/test-databases'
import { closeReaders } from './stream-reader'

/** Starts `server` listening on a free port of 127.0.0.1; answers its base URL. */
export async function listening(server: ComposedServer): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`
}

/** Two servers on one database, as behind a load balancer, listening; with their base URLs. */
export interface TwoListening extends TwoServers {
  readonly baseA: string
  readonly baseB: string
}

/**
 * Two servers on a fresh database of `kind` for each test, listening, with the live streams'
 * `events`; the test's readers are closed before the servers.
 */
export function useTwoListening(
  kind: TestStoreKind,
  events: ComposeOptions['events'],
): TwoListening {
  const servers = useTwoServers(kind, { options: { events }, perTest: true })
  const bases = { a: '', b: '' }
  beforeEach(async () => {
    bases.a = await listening(servers.a)
    bases.b = await listening(servers.b)
  })
  afterEach(closeReaders)
  return {
    ...servers,
    get baseA() {
      return bases.a
    },
    get baseB() {
      return bases.b
    },
  }
}

/**
 * Writes `count` posts, so `count` changes, straight through the store in one transaction (the
 * API would take a while); answers the site's version before them.
 */
export async function postsThroughTheStore(server: ComposedServer, count: number): Promise<number> {
  const store = server.container.get(TOKENS.newsStore)
  const before = await server.container.get(TOKENS.changeLog).version()
  await store.transaction(async (tx) => {
    for (let index = 0; index < count; index += 1) {
      const post = { title: `Post ${index}`, body: 'B', author: 'A' }
      const change = created(tx.newId(), post, { now: new Date(), editor: OPERATOR })
      await tx.insert(change.item)
      await tx.appendRevision(change.item._id, change.revision)
    }
  })
  return before
}
