import type { ComposedServer } from '@/composition/server/server.composition'
import {
  removeTempDirs,
  TEST_DATABASES,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from './server-fixture'
import { postsThroughTheStore, twoServers } from './support/live-servers'
import {
  closeReaders,
  openReady,
  openStream,
  waitUntil,
  type StreamReader,
} from './support/stream-reader'

const HEARTBEAT_MS = 150

afterAll(removeTempDirs)
afterEach(closeReaders)

if (TEST_POSTGRES_URL === undefined) {
  it.skip('PostgreSQL: SKIPPED because TEST_POSTGRES_URL is not set (scripts/ci-postgres.sh)')
}

describe.each(TEST_DATABASES)(
  'resuming the live stream on two servers on one $name database',
  (kind) => {
    let database: TestDatabase
    let a: ComposedServer
    let b: ComposedServer
    let baseA: string
    let baseB: string
    const RECONNECTS = 4

    beforeEach(async () => {
      database = await kind.create()
      const events = { heartbeatMs: HEARTBEAT_MS, reconnectsPerMinute: RECONNECTS }
      ;({ a, b, baseA, baseB } = await twoServers(database.url, events))
    })

    afterEach(async () => {
      closeReaders()
      await a.close()
      await b.close()
      await database.dispose()
    })

    it('replays at most 100 missed changes, and tells a reader further behind to reset instead', async () => {
      const before = await postsThroughTheStore(a, 101)
      const latest = before + 101
      const replayed = await openReady(baseA, { since: String(before + 1) })
      expect(replayed.reader.messages).toHaveLength(101)
      const tooFar = await openReady(baseB, { since: String(before) })
      expect(tooFar.reader.messages).toEqual([
        { event: 'reset', id: String(latest), data: `{"seq":${latest}}` },
        { event: 'ready', id: String(latest), data: `{"seq":${latest}}` },
      ])
    })

    it('counts the streams a client closed in the last minute across servers, and answers 429 with Retry-After past its reconnects', async () => {
      const closed: StreamReader[] = []
      for (let index = 0; index < RECONNECTS; index += 1) {
        const { reader } = await openReady(index % 2 === 0 ? baseA : baseB)
        reader.close()
        closed.push(reader)
      }
      // Each server records a close once it has seen it; give them the time to.
      await waitUntil(
        () => closed.every((reader) => reader.isEnded()),
        () => 'the closes',
      )
      const recorded = async () =>
        Number(
          (
            await a.database.db
              .selectFrom('event_stream_lease')
              .select((eb) => eb.fn.countAll().as('count'))
              .executeTakeFirst()
          )?.count,
        )
      for (let waited = 0; (await recorded()) < RECONNECTS && waited < 5_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      for (const base of [baseA, baseB]) {
        const refused = await openStream(base)
        expect(refused.status).toBe(429)
        await refused.ended
        const retryAfter = Number(refused.headers['retry-after'])
        expect(retryAfter).toBeGreaterThanOrEqual(1)
        expect(retryAfter).toBeLessThanOrEqual(60)
        expect(JSON.parse(refused.text())).toMatchObject({ status: 429 })
      }
      // Another address has a budget of its own.
      expect((await openReady(baseB, { from: '127.0.0.2' })).reader.status).toBe(200)
    }, 20_000)
  },
)
