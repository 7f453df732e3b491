import { DomainErrorException } from '@/domain/domain-error'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SqlRateLimitStore, windowEndOf } from '@/adapters/sql/sql-rate-limit.store'
import {
  POSTGRES_SKIPPED,
  postgresSchema,
  sqliteFile,
  TEST_POSTGRES_URL,
  type TestStoreKind,
} from './sql-test-stores'

if (TEST_POSTGRES_URL === undefined) console.warn(POSTGRES_SKIPPED)

const MINUTE = 60_000
/** The start of a window: a whole number of minutes since the epoch. */
const WINDOW_START = 28_333_334 * MINUTE

const KINDS: readonly TestStoreKind[] = [
  sqliteFile,
  ...(TEST_POSTGRES_URL === undefined ? [] : [postgresSchema(TEST_POSTGRES_URL)]),
]

describe('windowEndOf', () => {
  it('ends each window at the next whole multiple of its length', () => {
    expect(windowEndOf(WINDOW_START, MINUTE)).toBe(WINDOW_START + MINUTE)
    expect(windowEndOf(WINDOW_START + MINUTE - 1, MINUTE)).toBe(WINDOW_START + MINUTE)
    expect(windowEndOf(WINDOW_START + MINUTE, MINUTE)).toBe(WINDOW_START + 2 * MINUTE)
  })
})

describe.each(KINDS)('SqlRateLimitStore on $name', (kind) => {
  let dispose: () => Promise<void>
  let url: string
  let database: SqlDatabase
  let now: number
  let store: SqlRateLimitStore

  beforeEach(async () => {
    const place = await kind.create()
    dispose = () => place.dispose()
    url = place.url
    database = await openDatabase(url)
    now = WINDOW_START + 10_000
    store = new SqlRateLimitStore(database, { now: () => now })
  })
  afterEach(async () => {
    await database.close()
    await dispose()
  })

  const rows = async (db: SqlDatabase = database) =>
    (await db.db.selectFrom('rate_limit').select(['key', 'count']).orderBy('key').execute()).map(
      (row) => ({ key: row.key, count: Number(row.count) }),
    )

  it('counts the hits of a key in one window and says when the window ends', async () => {
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 1, resetInMs: 50_000 })
    now += 20_000
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 2, resetInMs: 30_000 })
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 3, resetInMs: 30_000 })
  })

  it('counts each key on its own', async () => {
    await store.hit('192.0.2.1', MINUTE)
    await store.hit('192.0.2.1', MINUTE)
    expect(await store.hit('192.0.2.2', MINUTE)).toMatchObject({ count: 1 })
    expect(await rows()).toEqual([
      { key: '192.0.2.1', count: 2 },
      { key: '192.0.2.2', count: 1 },
    ])
  })

  it('starts again from one when the window rolls over, and sweeps the ended window', async () => {
    await store.hit('192.0.2.1', MINUTE)
    await store.hit('192.0.2.2', MINUTE)
    now = WINDOW_START + MINUTE - 1
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 2, resetInMs: 1 })

    now = WINDOW_START + MINUTE
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 1, resetInMs: MINUTE })
    expect(await rows()).toEqual([{ key: '192.0.2.1', count: 1 }])
  })

  it('shares one count between servers on the same database, even when they race', async () => {
    const other = await openDatabase(url)
    try {
      const otherStore = new SqlRateLimitStore(other, { now: () => now })
      const hits = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? store : otherStore).hit('k', MINUTE)),
      )
      expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      )
      expect(await rows(other)).toEqual([{ key: 'k', count: 20 }])
    } finally {
      await other.close()
    }
  })

  it('rejects with Unavailable, and tells its listener, when the database fails', async () => {
    const failures: unknown[] = []
    const failing = new SqlRateLimitStore(database, {
      now: () => now,
      onError: (error) => failures.push(error),
    })
    await database.close()
    const refused = failing.hit('192.0.2.1', MINUTE)
    await expect(refused).rejects.toBeInstanceOf(DomainErrorException)
    await expect(refused).rejects.toMatchObject({ error: { code: 'Unavailable' } })
    expect(failures).toHaveLength(1)
  })
})
