import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { terminateBackends, withApplicationName } from '../../../scripts/bench/throwaway-postgres'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { isoInstantOf, PreparedNames } from '@/adapters/sql/postgres-pool'
import { describeOnPostgres, postgresSchema, runCleanups } from '../../support/test-databases'

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describeOnPostgres('PostgreSQL connections the server drops', (adminUrl) => {
  const cleanups: Array<() => Promise<void>> = []
  let database: SqlDatabase
  let name: string

  beforeEach(async () => {
    const place = await postgresSchema(adminUrl).create()
    cleanups.push(() => place.dispose())
    // Its own name, so that only this test's backends are terminated.
    name = `newswire_pool_${randomBytes(6).toString('hex')}`
    database = await openDatabase(withApplicationName(place.url, name))
    cleanups.push(() => database.close())
  })
  afterEach(() => runCleanups(cleanups))

  it('fails the transaction whose connection is dropped between statements, then serves the next', async () => {
    const dropped = database.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx)
      expect(await terminateBackends(adminUrl, name)).toBe(1)
      // The server's goodbye and the closed socket arrive while the client is checked out.
      await pause(200)
      await sql`select 1`.execute(trx)
    })
    await expect(dropped).rejects.toThrow()
    await expect(sql`select 1 as one`.execute(database.db)).resolves.toMatchObject({
      rows: [{ one: 1 }],
    })
    expect(await database.ping()).toBe(true)
  })

  it('lends no statement after a dropped one the connection that was dropped', async () => {
    // The next statement starts as soon as the first has failed, before the socket is seen closed.
    const next = sql`select pg_sleep(5)`.execute(database.db).then(
      () => 'the sleep was not interrupted',
      () => sql`select 1 as one`.execute(database.db),
    )
    await pause(200)
    expect(await terminateBackends(adminUrl, name)).toBe(1)
    await expect(next).resolves.toMatchObject({ rows: [{ one: 1 }] })
  })

  it('keeps a connection whose statement failed with an ordinary error', async () => {
    const backend = async () =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0]?.pid
    const before = await backend()
    await expect(sql`select 1 / 0`.execute(database.db)).rejects.toThrow('division by zero')
    expect(await backend()).toBe(before)
  })
})

describeOnPostgres('statements prepared once per connection', (adminUrl) => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  async function opened(query = ''): Promise<{ database: SqlDatabase; url: string }> {
    const place = await postgresSchema(adminUrl).create()
    cleanups.push(() => place.dispose())
    const url = `${place.url}${place.url.includes('?') ? '&' : '?'}${query}`
    const database = await openDatabase(url)
    cleanups.push(() => database.close())
    return { database, url: place.url }
  }

  /** Runs `sql` three times on one connection, then lists what that connection has prepared. */
  async function preparedAfterThreeRuns(database: SqlDatabase, table: string) {
    return database.db.connection().execute(async (db) => {
      for (let run = 0; run < 3; run += 1) {
        await sql`select count(*) from ${sql.table(table)} where id > ${run}`.execute(db)
      }
      const { rows } = await sql<{ statement: string }>`
        select statement from pg_prepared_statements`.execute(db)
      return rows.map((row) => row.statement)
    })
  }

  it('prepares a statement the second time a connection runs it, and runs it prepared after', async () => {
    const { database } = await opened()
    await sql`create table counted (id integer primary key)`.execute(database.db)
    const prepared = await preparedAfterThreeRuns(database, 'counted')
    expect(prepared.filter((statement) => statement.includes('counted'))).toEqual([
      'select count(*) from "counted" where id > $1',
    ])
  })

  it('prepares none with prepared_statements=off, for a pooler that keeps none', async () => {
    const { database } = await opened('prepared_statements=off')
    await sql`create table counted (id integer primary key)`.execute(database.db)
    expect(await preparedAfterThreeRuns(database, 'counted')).toEqual([])
  })

  it('runs a prepared read again on a fresh connection once a migration elsewhere changed its table', async () => {
    const { database, url } = await opened()
    await sql`create table changing (id integer primary key)`.execute(database.db)
    await sql`insert into changing values (1)`.execute(database.db)
    const readAll = () => sql<Record<string, unknown>>`select * from changing`.execute(database.db)
    // Prepared on every pooled connection that ran it twice.
    for (let run = 0; run < 25; run += 1) await readAll()
    const admin = await openDatabase(url)
    try {
      await sql`alter table changing add column note text`.execute(admin.db)
    } finally {
      await admin.close()
    }
    // PostgreSQL refuses a prepared plan whose columns changed (0A000) at most once per
    // connection; each such connection is closed, and the pool opens fresh ones.
    const outcomes = []
    for (let run = 0; run < 25; run += 1) {
      outcomes.push(
        await readAll().then(
          (result) => result.rows[0],
          () => 'refused',
        ),
      )
    }
    expect(outcomes.at(-1)).toEqual({ id: 1, note: null })
    const refused = outcomes.filter((outcome) => outcome === 'refused').length
    expect(refused).toBeGreaterThanOrEqual(1)
    expect(refused).toBeLessThanOrEqual(10)
  })
})

describe('the names of prepared statements', () => {
  it('names a text the second time it is seen, with the same name each time after', () => {
    const names = new PreparedNames()
    expect(names.nameOf('select 1')).toBeUndefined()
    const name = names.nameOf('select 1')
    expect(name).toMatch(/^newswire_\d+$/)
    expect(names.nameOf('select 1')).toBe(name)
    expect(names.nameOf('select 2')).toBeUndefined()
    expect(names.nameOf('select 2')).not.toBe(name)
  })

  it('names at most NAMED texts, and runs the rest unnamed', () => {
    const names = new PreparedNames()
    const texts = Array.from({ length: PreparedNames.NAMED + 5 }, (_, index) => `select ${index}`)
    for (const text of [...texts, ...texts]) names.nameOf(text)
    const named = texts.map((text) => names.nameOf(text)).filter((name) => name !== undefined)
    expect(named).toHaveLength(PreparedNames.NAMED)
    expect(new Set(named).size).toBe(PreparedNames.NAMED)
  })

  it('forgets the texts seen once, a thousand at a time', () => {
    const names = new PreparedNames()
    for (let index = 0; index <= PreparedNames.SEEN; index += 1) names.nameOf(`select ${index}`)
    // The thousand-and-first cleared the thousand before it.
    expect(names.nameOf('select 0')).toBeUndefined()
    expect(names.nameOf(`select ${PreparedNames.SEEN}`)).toMatch(/^newswire_/)
  })
})

describeOnPostgres('instants read from PostgreSQL', (adminUrl) => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  const INSTANTS = [
    '2026-01-02T03:04:05.678Z',
    '2026-01-02T03:04:05.600Z',
    '2026-01-02T03:04:05.000Z',
    '1999-12-31T23:59:59.999Z',
  ]

  it.each([
    ['UTC', 'UTC'],
    ['another time zone', 'America/St_Johns'],
  ])('reads each instant back as written, in a session in %s', async (_, zone) => {
    const place = await postgresSchema(adminUrl).create()
    cleanups.push(() => place.dispose())
    const url = new URL(place.url)
    url.searchParams.set('options', `${url.searchParams.get('options') ?? ''} -c TimeZone=${zone}`)
    const database = await openDatabase(url.toString())
    cleanups.push(() => database.close())
    const shown = await sql<{ TimeZone: string }>`show timezone`.execute(database.db)
    expect(shown.rows[0]?.TimeZone).toBe(zone)
    await sql`create table instants (at timestamptz not null)`.execute(database.db)
    for (const at of INSTANTS) await sql`insert into instants values (${at})`.execute(database.db)
    const { rows } = await sql<{ at: Date | string }>`select at from instants`.execute(database.db)
    expect(rows.map(({ at }) => (typeof at === 'string' ? at : at.toISOString()))).toEqual(INSTANTS)
  })
})

describe('isoInstantOf', () => {
  it.each([
    ['2026-01-02 03:04:05.678+00', '2026-01-02T03:04:05.678Z'],
    ['2026-01-02 03:04:05.6+00', '2026-01-02T03:04:05.600Z'],
    ['2026-01-02 03:04:05+00', '2026-01-02T03:04:05.000Z'],
    // Microseconds are cut, as a Date cuts them.
    ['2026-01-02 03:04:05.678999+00', '2026-01-02T03:04:05.678Z'],
  ])('writes %s as %s without a Date', (text, iso) => {
    expect(isoInstantOf(text)).toBe(iso)
  })

  it('leaves an instant in another zone to the driver, whose Date says the same instant', () => {
    const read = isoInstantOf('2026-01-02 00:34:05.678-02:30')
    expect(read).toBeInstanceOf(Date)
    expect((read as Date).toISOString()).toBe('2026-01-02T03:04:05.678Z')
  })
})
