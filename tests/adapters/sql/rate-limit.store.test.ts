import { DomainErrorException } from '@/domain/domain-error'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SqlRateLimitStore } from '@/adapters/sql/sql-rate-limit.store'
import { POSTGRES_SKIPPED, SHARED_STORE_KINDS, TEST_POSTGRES_URL } from './sql-test-stores'

if (TEST_POSTGRES_URL === undefined) console.warn(POSTGRES_SKIPPED)

const MINUTE = 60_000
/** When the tests' clock starts: a whole minute, so that a window clock-aligned would show. */
const WINDOW_START = 28_333_334 * MINUTE

describe.each(SHARED_STORE_KINDS)('SqlRateLimitStore on $name', (kind) => {
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

  it('counts the hits of a key in a window that starts at its first hit', async () => {
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 1, resetInMs: MINUTE })
    now += 20_000
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 2, resetInMs: 40_000 })
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 3, resetInMs: 40_000 })
  })

  it('keeps counting across a whole minute of the clock: no window ends early', async () => {
    now = WINDOW_START + MINUTE - 1_000
    await store.hit('192.0.2.1', MINUTE)
    now = WINDOW_START + MINUTE + 1_000
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 2, resetInMs: MINUTE - 2_000 })
  })

  it('peeks at a key’s count without counting, and at none once its window ended', async () => {
    expect(await store.peek('192.0.2.1', MINUTE)).toEqual({ count: 0, resetInMs: MINUTE })
    await store.hit('192.0.2.1', MINUTE)
    now += 20_000
    expect(await store.peek('192.0.2.1', MINUTE)).toEqual({ count: 1, resetInMs: 40_000 })
    expect(await store.peek('192.0.2.1', MINUTE)).toEqual({ count: 1, resetInMs: 40_000 })
    now += 40_000
    expect(await store.peek('192.0.2.1', MINUTE)).toEqual({ count: 0, resetInMs: MINUTE })
    expect(await store.hit('192.0.2.1', MINUTE)).toMatchObject({ count: 1 })
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
    const start = now
    await store.hit('192.0.2.1', MINUTE)
    await store.hit('192.0.2.2', MINUTE)
    now = start + MINUTE - 1
    expect(await store.hit('192.0.2.1', MINUTE)).toEqual({ count: 2, resetInMs: 1 })

    now = start + MINUTE
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
