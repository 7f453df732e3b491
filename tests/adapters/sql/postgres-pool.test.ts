import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { terminateBackends, withApplicationName } from '../../../scripts/bench/throwaway-postgres'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
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
