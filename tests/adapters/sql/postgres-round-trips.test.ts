import { sql } from 'kysely'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SqlNewsStore } from '@/adapters/sql/news/store'
import { SqlRateLimitStore } from '@/adapters/sql/sql-rate-limit.store'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { describeOnPostgres, postgresSchema, runCleanups } from '../../support/test-databases'

const MINUTE = 60_000

const DRAFT = { title: 'One statement', author: 'Ada', body: 'Written in one round trip.' }

/**
 * A write on PostgreSQL costs a round trip per statement: the store sends a transaction's writes
 * together, with the change signal's raise, in one statement (postgres-writes.ts), and begins a
 * transaction only when a read must come first; the write budget reads its window and takes its
 * unit in one statement.
 */
describeOnPostgres('PostgreSQL writes in few round trips', (postgresUrl) => {
  const cleanups: Array<() => Promise<void>> = []
  let database: SqlDatabase
  let store: SqlNewsStore
  let news: JournaledNewsRepository
  /** The kinds of the statements run (statement-timing.ts), or `failed`. */
  let statements: string[]

  beforeEach(async () => {
    const place = await postgresSchema(postgresUrl).create()
    cleanups.push(() => place.dispose())
    statements = []
    database = await openDatabase(place.url, {
      onStatement: ({ kind, failed }) => statements.push(failed ? 'failed' : kind),
    })
    cleanups.push(() => database.close())
    store = new SqlNewsStore(database)
    news = new JournaledNewsRepository(store)
  })
  afterEach(() => runCleanups(cleanups))

  async function counted<T>(work: () => Promise<T>): Promise<string[]> {
    statements = []
    await work()
    return statements
  }

  it('creates a post without a key in one statement, which PostgreSQL commits by itself', async () => {
    const before = await store.version()
    let id = ''
    expect(
      await counted(async () => {
        id = (await news.create(DRAFT))._id
      }),
    ).toEqual(['other'])
    expect(await news.get(id)).toMatchObject(DRAFT)
    expect((await news.revisions(id, {})).items).toHaveLength(1)
    expect(await store.version()).toBe(before + 1)
    expect(await store.changesSince(before, 10)).toEqual([
      expect.objectContaining({ seq: before + 1, id, kind: 'created', revision: 1 }),
    ])
  })

  it('edits a post in a transaction of four statements: its locked read, one write, and the two ends', async () => {
    const { _id: id } = await news.create(DRAFT)
    const before = await store.version()
    expect(await counted(() => news.update(id, { title: 'Edited' }))).toEqual([
      'transaction',
      'select',
      'other',
      'transaction',
    ])
    expect(await news.get(id)).toMatchObject({ title: 'Edited', revision: 2 })
    expect(await store.changesSince(before, 10)).toEqual([
      expect.objectContaining({ seq: before + 1, id, kind: 'edited', revision: 2 }),
    ])
  })

  it('creates a post with a new key in a transaction of four statements: the key’s read, one write, and the two ends', async () => {
    expect(await counted(() => news.create(DRAFT, { idempotencyKey: 'key-1' }))).toEqual([
      'transaction',
      'select',
      'other',
      'transaction',
    ])
    const again = await news.create(DRAFT, { idempotencyKey: 'key-1' })
    expect((await news.list({})).items.map((item) => item._id)).toEqual([again._id])
  })

  it('runs creates with and without keys and edits at once without a deadlock or a second attempt', async () => {
    const { _id: id } = await news.create(DRAFT)
    statements = []
    const writes = Array.from({ length: 12 }, (_, index) => [
      news.create(DRAFT),
      news.create(DRAFT, { idempotencyKey: `key-${index}` }),
      news.update(id, { title: `Edit ${index}` }),
    ]).flat()
    await expect(Promise.all(writes)).resolves.toHaveLength(36)
    expect(statements.filter((kind) => kind === 'failed')).toEqual([])
    expect(statements.filter((kind) => kind === 'other')).toHaveLength(36)
    expect((await news.get(id)).revision).toBe(13)
  })

  it('writes nothing of a transaction whose held write fails its check after the others ran', async () => {
    const { _id: id } = await news.create(DRAFT)
    const stored = await store.find(id)
    if (stored === undefined) throw new Error('no post')
    const before = await store.version()
    let copy = ''
    const failed = store.transaction(async (tx) => {
      copy = tx.newId()
      await tx.insert({ ...stored, _id: copy })
      // A post that is not there: its update writes no row, which fails the statement's check.
      await tx.update({ ...stored, _id: tx.newId() })
    })
    await expect(failed).rejects.toThrow()
    expect(await store.find(copy)).toBeUndefined()
    expect(await store.version()).toBe(before)
  })

  /** A budget whose first reservation, which also sweeps the ended windows, is behind it. */
  async function warmBudget(): Promise<SqlRateLimitStore> {
    const budget = new SqlRateLimitStore(database)
    await budget.reserve('warm', MINUTE, 5)
    return budget
  }

  it('reads the window and takes a unit in one statement', async () => {
    const budget = await warmBudget()
    statements = []
    await expect(budget.reserve('client:write', MINUTE, 2)).resolves.toMatchObject({
      granted: true,
      count: 1,
    })
    await expect(budget.reserve('client:write', MINUTE, 2)).resolves.toMatchObject({
      granted: true,
      count: 2,
    })
    expect(statements).toEqual(['other', 'other'])
  })

  it('refuses a spent budget without writing its row, nor locking it', async () => {
    const budget = await warmBudget()
    await budget.reserve('client:write', MINUTE, 1)
    const version = () =>
      sql<{
        xmin: string
        xmax: string
      }>`select xmin::text, xmax::text from rate_limit where key = 'client:write'`
        .execute(database.db)
        .then(({ rows }) => rows[0])
    const before = await version()
    for (let flood = 0; flood < 3; flood += 1) {
      await expect(budget.reserve('client:write', MINUTE, 1)).resolves.toMatchObject({
        granted: false,
        count: 1,
      })
    }
    expect(await version()).toEqual(before)
  })
})
