import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { unavailable } from '@/domain/domain-error'
import type { LeaseAnswer, StreamLeaseLimits } from '@/application/ports/stream-leases.port'
import { openDatabase, sqlDatabase, type SqlDatabase } from '@/adapters/sql/database'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import {
  RECONNECT_WINDOW_MS,
  SqlStreamLeases,
  STREAM_LEASE_TERM_MS,
} from '@/adapters/sql/sql-stream-leases'
import { describeOnDatabases } from '../../support/test-databases'
import { useTempFolder } from '../../support/temp-folder'

const CLIENT = '192.0.2.1'
const OTHER = '198.51.100.7'

/** `open` streams at once, and reconnects enough that they never matter. */
const cap = (open: number): StreamLeaseLimits => ({ open, reconnectsPerMinute: 1000 })

/** The lease's id, or undefined when it was refused. */
const idOf = (answer: LeaseAnswer): string | undefined => (answer.taken ? answer.id : undefined)

describeOnDatabases('SqlStreamLeases on $name', (kind) => {
  let dispose: () => Promise<void>
  let databases: SqlDatabase[]
  let now: number

  beforeEach(async () => {
    const place = await kind.create()
    // Two servers on one database, each with its own pool or connection.
    databases = [await openDatabase(place.url), await openDatabase(place.url)]
    dispose = () => place.dispose()
    now = Date.UTC(2026, 0, 1)
  })
  afterEach(async () => {
    for (const database of databases) await database.close()
    await dispose()
  })

  /** The leases of one server process. */
  const server = (index = 0) =>
    new SqlStreamLeases(databases[index] as SqlDatabase, { now: () => now })

  /** A lease for `client` within `open` streams at once: its id, or undefined when refused. */
  const take = async (leases: SqlStreamLeases, client: string, open: number) =>
    idOf(await leases.acquire(client, cap(open)))

  it('takes leases up to the cap per client, counted across servers, and gives places back on release', async () => {
    const [a, b] = [server(0), server(1)]
    const taken = [await take(a, CLIENT, 3), await take(b, CLIENT, 3), await take(a, CLIENT, 3)]
    for (const id of taken) expect(id).toEqual(expect.any(String))
    expect(new Set(taken).size).toBe(3)
    expect(await take(b, CLIENT, 3)).toBeUndefined()
    expect(await take(a, CLIENT, 3)).toBeUndefined()
    // Another client counts apart.
    expect(await take(b, OTHER, 3)).toEqual(expect.any(String))
    await a.release(taken[0] as string)
    expect(await take(b, CLIENT, 3)).toEqual(expect.any(String))
    expect(await take(a, CLIENT, 3)).toBeUndefined()
  })

  it('stops counting the leases a server no longer renews, and keeps those it does', async () => {
    const [crashed, living] = [server(0), server(1)]
    await take(crashed, CLIENT, 2)
    await take(living, CLIENT, 2)
    now += STREAM_LEASE_TERM_MS - 1_000
    await living.renew()
    expect(await take(living, CLIENT, 2)).toBeUndefined()
    now += 1_000
    // The crashed server's lease has expired; the renewed one still counts.
    expect(await take(living, CLIENT, 2)).toEqual(expect.any(String))
    expect(await take(living, CLIENT, 2)).toBeUndefined()
  })

  it('never lets servers taking leases at once pass the cap together', async () => {
    // Two SQLite connections in one thread would wait for each other's lock while blocking the
    // thread; across processes SQLite's write lock keeps takers apart, as the store relies on.
    const servers = kind.name === 'PostgreSQL' ? [server(0), server(1)] : [server(0), server(0)]
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        take(servers[index % 2] as SqlStreamLeases, CLIENT, 5),
      ),
    )
    expect(attempts.filter((id) => id !== undefined)).toHaveLength(5)
  })

  it('counts the streams a client closed in the last minute, across servers, and tells when the oldest stops counting', async () => {
    const [a, b] = [server(0), server(1)]
    const limits = { open: 5, reconnectsPerMinute: 2 }
    const first = idOf(await a.acquire(CLIENT, limits)) as string
    await a.release(first)
    now += 10_000
    const second = idOf(await b.acquire(CLIENT, limits)) as string
    await b.release(second)
    // Two closed within the minute: a third stream waits until the first has aged out.
    expect(await a.acquire(CLIENT, limits)).toEqual({
      taken: false,
      over: 'reconnects',
      retryAfterMs: RECONNECT_WINDOW_MS - 10_000,
    })
    expect(await b.acquire(CLIENT, limits)).toMatchObject({ taken: false, over: 'reconnects' })
    // Another client has a budget of its own; a renewal leaves the closed ones counting.
    expect(await b.acquire(OTHER, limits)).toMatchObject({ taken: true })
    await a.renew()
    now += RECONNECT_WINDOW_MS - 10_000
    const third = idOf(await a.acquire(CLIENT, limits))
    expect(third).toEqual(expect.any(String))
    await a.release(third as string)
    expect(await b.acquire(CLIENT, limits)).toMatchObject({ taken: false, over: 'reconnects' })
  })

  it('tells a client over its cap of open streams so, before its reconnects', async () => {
    const a = server(0)
    const limits = { open: 1, reconnectsPerMinute: 1 }
    await a.release(idOf(await a.acquire(CLIENT, limits)) as string)
    now += 1_000
    await a.acquire(CLIENT, { open: 1, reconnectsPerMinute: 2 })
    expect(await a.acquire(CLIENT, limits)).toEqual({ taken: false, over: 'open' })
  })

  it('sweeps expired leases and closed streams of every client when it renews', async () => {
    const a = server(0)
    await take(a, CLIENT, 2)
    await a.release((await take(a, OTHER, 2)) as string)
    now += Math.max(STREAM_LEASE_TERM_MS, RECONNECT_WINDOW_MS)
    await server(1).renew()
    const left = await (databases[0] as SqlDatabase).db
      .selectFrom('event_stream_lease')
      .select('id')
      .execute()
    expect(left).toEqual([])
  })

  it('reports Unavailable when the database fails', async () => {
    const leases = server(0)
    await (databases[0] as SqlDatabase).close()
    for (const call of [
      () => leases.acquire(CLIENT, cap(2)),
      () => leases.renew(),
      () => leases.release('x'),
    ]) {
      await expect(call()).rejects.toEqual(unavailable())
    }
  })
})

describe('SqlStreamLeases on a SQLite file', () => {
  const folder = useTempFolder('newswire-leases-')

  /**
   * The database at `path` on one connection that logs every statement it runs, with the
   * connection's setting at FULL, as openDatabase leaves it.
   */
  async function tracedDatabase(path: string, statements: string[]): Promise<SqlDatabase> {
    await (await openDatabase(`sqlite:${path}`)).close()
    const sqlite = new SQLite(path, { verbose: (statement) => statements.push(String(statement)) })
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('synchronous = FULL')
    const db = new Kysely<NewsWireSchema>({ dialect: new SqliteDialect({ database: sqlite }) })
    return sqlDatabase(db, { engine: 'sqlite', path })
  }

  /** Each statement that writes the leases, with the `synchronous` setting it committed under. */
  function writesWithTheirSync(statements: readonly string[]): { sql: string; sync: string }[] {
    let sync = 'full'
    const writes: { sql: string; sync: string }[] = []
    for (const statement of statements) {
      const setting = /pragma synchronous\s*=\s*(\w+)/i.exec(statement)?.[1]
      if (setting !== undefined) sync = setting.toLowerCase()
      else if (/^(insert|update|delete)\b.*event_stream_lease/is.test(statement.trim())) {
        writes.push({ sql: statement.split(/\s+/, 1)[0] ?? '', sync })
      }
    }
    return writes
  }

  it('gives leases back and renews them without a disk flush at commit, which would block the event loop', async () => {
    const statements: string[] = []
    const database = await tracedDatabase(join(folder(), 'news.db'), statements)
    try {
      const leases = new SqlStreamLeases(database)
      await leases.acquire(CLIENT, cap(2))
      const [lease] = await database.db.selectFrom('event_stream_lease').select('id').execute()
      statements.length = 0
      await leases.renew()
      await leases.release(lease?.id ?? '')
      const writes = writesWithTheirSync(statements)
      expect(writes.map((write) => write.sql.toLowerCase())).toEqual(
        expect.arrayContaining(['update']),
      )
      expect(writes.filter((write) => write.sync !== 'normal')).toEqual([])
      // And the connection is left as it was found, durable at each commit.
      expect(statements.at(-1)?.toLowerCase()).toMatch(/pragma synchronous = full/)
    } finally {
      await database.close()
    }
  })
})
