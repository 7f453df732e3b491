import { unavailable } from '@/domain/domain-error'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SqlRateLimitStore } from '@/adapters/sql/sql-rate-limit.store'
import { describeOnDatabases } from '../../support/test-databases'

const MINUTE = 60_000
/** When the tests' clock starts: a whole minute, so that a window clock-aligned would show. */
const WINDOW_START = 28_333_334 * MINUTE

describeOnDatabases('SqlRateLimitStore on $name', (kind) => {
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

  /** A budget no test reaches, for the tests about windows rather than the max. */
  const PLENTY = 1_000
  const take = (key: string, max = PLENTY) => store.reserve(key, MINUTE, max)

  it('counts the units of a key in a window that starts at its first unit', async () => {
    const first = await take('192.0.2.1')
    expect(first).toEqual({
      granted: true,
      count: 1,
      resetInMs: MINUTE,
      windowEnd: now + MINUTE,
    })
    now += 20_000
    expect(await take('192.0.2.1')).toMatchObject({ granted: true, count: 2, resetInMs: 40_000 })
    expect(await take('192.0.2.1')).toMatchObject({ count: 3, windowEnd: first.windowEnd })
  })

  it('keeps counting across a whole minute of the clock: no window ends early', async () => {
    now = WINDOW_START + MINUTE - 1_000
    await take('192.0.2.1')
    now = WINDOW_START + MINUTE + 1_000
    expect(await take('192.0.2.1')).toMatchObject({ count: 2, resetInMs: MINUTE - 2_000 })
  })

  it('refuses a unit once the window holds max, and says when the window ends', async () => {
    await take('192.0.2.1', 2)
    now += 20_000
    await take('192.0.2.1', 2)
    const refused = await take('192.0.2.1', 2)
    expect(refused).toMatchObject({ granted: false, count: 2, resetInMs: 40_000 })
    expect(await rows()).toEqual([{ key: '192.0.2.1', count: 2 }])
    now += 40_000
    expect(await take('192.0.2.1', 2)).toMatchObject({ granted: true, count: 1 })
  })

  it('gives a unit back to its window, never below zero', async () => {
    const first = await take('192.0.2.1', 2)
    await take('192.0.2.1', 2)
    await store.giveBack('192.0.2.1', first.windowEnd)
    expect(await rows()).toEqual([{ key: '192.0.2.1', count: 1 }])
    expect(await take('192.0.2.1', 2)).toMatchObject({ granted: true, count: 2 })
    for (let i = 0; i < 3; i += 1) await store.giveBack('192.0.2.1', first.windowEnd)
    expect(await rows()).toEqual([{ key: '192.0.2.1', count: 0 }])
  })

  it('gives nothing back to a later window than the unit was taken from', async () => {
    const old = await take('192.0.2.1', 2)
    now += MINUTE
    await take('192.0.2.1', 2)
    await take('192.0.2.1', 2)
    await store.giveBack('192.0.2.1', old.windowEnd)
    expect(await take('192.0.2.1', 2)).toMatchObject({ granted: false, count: 2 })
  })

  it('counts each key on its own', async () => {
    await take('192.0.2.1')
    await take('192.0.2.1')
    expect(await take('192.0.2.2')).toMatchObject({ count: 1 })
    expect(await rows()).toEqual([
      { key: '192.0.2.1', count: 2 },
      { key: '192.0.2.2', count: 1 },
    ])
  })

  it('starts again from one when the window rolls over, and sweeps the ended window', async () => {
    const start = now
    await take('192.0.2.1')
    await take('192.0.2.2')
    now = start + MINUTE - 1
    expect(await take('192.0.2.1')).toMatchObject({ count: 2, resetInMs: 1 })

    now = start + MINUTE
    expect(await take('192.0.2.1')).toMatchObject({ count: 1, resetInMs: MINUTE })
    expect(await rows()).toEqual([{ key: '192.0.2.1', count: 1 }])
  })

  it('grants exactly max units between servers that race for them', async () => {
    const other = await openDatabase(url)
    try {
      const otherStore = new SqlRateLimitStore(other, { now: () => now })
      const reservations = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? store : otherStore).reserve('k', MINUTE, 25),
        ),
      )
      const granted = reservations.filter((reservation) => reservation.granted)
      expect(granted.map((reservation) => reservation.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 25 }, (_, i) => i + 1),
      )
      expect(await rows(other)).toEqual([{ key: 'k', count: 25 }])
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
    const refused = failing.reserve('192.0.2.1', MINUTE, 60)
    await expect(refused).rejects.toEqual(unavailable())
    expect(failures).toHaveLength(1)
    await expect(failing.giveBack('192.0.2.1', now + MINUTE)).rejects.toMatchObject({
      code: 'Unavailable',
    })
  })
})
