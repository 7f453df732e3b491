import { OPERATOR } from '@/domain/editor'
import type { AddressInfo } from 'node:net'
import { created } from '@/domain/rules/news-history.rules'
import type { ComposedServer, ComposeOptions } from '@/composition/server/server.composition'
import { TOKENS } from '@/composition/server/server.tokens'
import { composeTestServer } from '../server-fixture'

/** Starts `server` listening on a free port of 127.0.0.1; answers its base URL. */
export async function listening(server: ComposedServer): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`
}

/** Two listening servers on one database, as behind a load balancer. */
export interface TwoServers {
  readonly a: ComposedServer
  readonly b: ComposedServer
  readonly baseA: string
  readonly baseB: string
}

/** Composes and starts two servers on the database at `url`, with the live streams' `events`. */
export async function twoServers(
  url: string,
  events: ComposeOptions['events'],
): Promise<TwoServers> {
  const a = await composeTestServer({ DATABASE_URL: url }, { events })
  const b = await composeTestServer({ DATABASE_URL: url }, { events })
  return { a, b, baseA: await listening(a), baseB: await listening(b) }
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
