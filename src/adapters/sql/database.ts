import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely'
import { Pool } from 'pg'
import { migrateToLatest } from '@/adapters/sql/newswire.migrations'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'

export type Engine = 'sqlite' | 'postgres'

/** An open, migrated database, shared by the SQL news store and the outbox. */
export interface SqlDatabase {
  readonly db: Kysely<NewsWireSchema>
  readonly engine: Engine
  /** The URL with any password hidden, for logs. */
  readonly description: string
  /** True when the database answers a trivial query; never rejects. */
  ping(): Promise<boolean>
  /** Closes the connection or pool; later calls do nothing. */
  close(): Promise<void>
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/newswire.db'

export type DatabaseTarget =
  | { readonly engine: 'sqlite'; readonly path: string }
  | { readonly engine: 'postgres'; readonly connectionString: string }

const SQLITE_PREFIX = 'sqlite:'
const POSTGRES_URL = /^postgres(?:ql)?:\/\//i

/**
 * Reads DATABASE_URL: `sqlite:PATH` (relative to the working directory), `sqlite::memory:`,
 * or `postgres://…` / `postgresql://…`. Throws an Error naming the accepted forms otherwise.
 */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  const trimmed = url.trim()
  if (POSTGRES_URL.test(trimmed)) return { engine: 'postgres', connectionString: trimmed }
  if (trimmed.startsWith(SQLITE_PREFIX) && trimmed.length > SQLITE_PREFIX.length) {
    return { engine: 'sqlite', path: trimmed.slice(SQLITE_PREFIX.length) }
  }
  // The value is not echoed: it may hold a password.
  throw new Error(
    'DATABASE_URL must be sqlite:PATH, sqlite::memory: or postgres://user:password@host:port/database',
  )
}

/** The URL as it may be logged: a PostgreSQL password becomes ***. */
export function describeDatabaseUrl(url: string): string {
  const target = parseDatabaseUrl(url)
  if (target.engine === 'sqlite') return `${SQLITE_PREFIX}${target.path}`
  try {
    const parsed = new URL(target.connectionString)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'postgres://…'
  }
}

/**
 * Opens the database DATABASE_URL names and brings its schema up to date. For SQLite it creates
 * the folder if needed and turns on WAL with durable commits. Rejects with an Error (its cause
 * being the driver's) when the database cannot be reached or migrated.
 */
export async function openDatabase(url: string): Promise<SqlDatabase> {
  const target = parseDatabaseUrl(url)
  const description = describeDatabaseUrl(url)
  let database: SqlDatabase | undefined
  try {
    const db =
      target.engine === 'sqlite' ? openSqlite(target.path) : openPostgres(target.connectionString)
    database = wrap(db, target.engine, description)
    await migrateToLatest(db, target.engine)
    return database
  } catch (error) {
    await database?.close().catch(() => undefined)
    throw new Error(`could not open the ${target.engine} database ${description}`, {
      cause: error,
    })
  }
}

function openSqlite(path: string): Kysely<NewsWireSchema> {
  const memory = path === ':memory:'
  if (!memory) mkdirSync(dirname(resolve(path)), { recursive: true })
  const sqlite = new SQLite(memory ? ':memory:' : resolve(path))
  sqlite.pragma('journal_mode = WAL')
  // FULL: a commit is on disk before the API answers; NORMAL could lose the last ones on power loss.
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('busy_timeout = 5000')
  return new Kysely<NewsWireSchema>({ dialect: new SqliteDialect({ database: sqlite }) })
}

function openPostgres(connectionString: string): Kysely<NewsWireSchema> {
  const pool = new Pool({
    connectionString,
    max: 10,
    application_name: 'newswire',
    // Bounded waits, so that /api/health and requests fail fast instead of hanging.
    connectionTimeoutMillis: 5_000,
    statement_timeout: 10_000,
    idleTimeoutMillis: 30_000,
  })
  // An idle client that loses its server emits here; without a listener the process would crash.
  // The next query reports the failure as Unavailable.
  pool.on('error', () => undefined)
  return new Kysely<NewsWireSchema>({ dialect: new PostgresDialect({ pool }) })
}

function wrap(db: Kysely<NewsWireSchema>, engine: Engine, description: string): SqlDatabase {
  let closing: Promise<void> | undefined
  return {
    db,
    engine,
    description,
    async ping() {
      if (closing !== undefined) return false
      try {
        await sql`select 1`.execute(db)
        return true
      } catch {
        return false
      }
    },
    close() {
      closing ??= db.destroy()
      return closing
    },
  }
}
