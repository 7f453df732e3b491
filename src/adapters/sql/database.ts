import { accessSync, constants, mkdirSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect, sql, type KyselyConfig } from 'kysely'
import { migrateToLatest } from '@/adapters/sql/newswire.migrations'
import { openPostgresPool } from '@/adapters/sql/postgres-pool'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { withPreparedStatements } from '@/adapters/sql/sqlite-statements'
import { kyselyLogOf, type StatementObserver } from '@/adapters/sql/statement-timing'
import { runTransaction, runUnsynced, type TransactionOptions } from '@/adapters/sql/transactions'
import { WalFlush, walFileOf } from '@/adapters/sql/sqlite-wal-flush'
import {
  describeDatabase,
  parseDatabaseUrl,
  type DatabaseTarget,
  type Engine,
} from '@/application/database-target'

export type { Engine } from '@/application/database-target'

/** An open, migrated database, shared by the SQL news store and the outbox. */
export interface SqlDatabase {
  readonly db: Kysely<NewsWireSchema>
  readonly engine: Engine
  /** What was opened: the SQLite file, or the PostgreSQL server. */
  readonly target: DatabaseTarget
  /** The URL with any password hidden, for logs. */
  readonly description: string
  /** Told of every statement, when the opener asked (OpenOptions). */
  readonly onStatement?: StatementObserver
  /**
   * Resolves once every commit made before the call is on the disk. A SQLite file's commits
   * reach the disk when its log is flushed, off the event loop (WalFlush); PostgreSQL's and an
   * in-memory database's need nothing more.
   */
  flushLog(): Promise<void>
  /** Runs `work` in one transaction, as transactions.ts decides for every adapter. */
  transaction<T>(
    work: (db: Kysely<NewsWireSchema>) => Promise<T>,
    options: TransactionOptions,
  ): Promise<T>
  /** Runs `work` outside a transaction, its commits not waited for (transactions.ts). */
  unsynced<T>(work: (db: Kysely<NewsWireSchema>) => Promise<T>): Promise<T>
  /** True when the database answers a trivial query; never rejects. */
  ping(): Promise<boolean>
  /** Closes the connection or pool; later calls do nothing. */
  close(): Promise<void>
}

/**
 * Why a database could not be opened, in one line that names the path or the host and port
 * (never the password), with `fix` saying what the operator should change.
 */
export class DatabaseOpenError extends Error {
  constructor(
    message: string,
    readonly fix: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'DatabaseOpenError'
  }
}

export interface OpenOptions {
  /** Told of every statement the database runs, with its duration (the server's metrics). */
  readonly onStatement?: StatementObserver
}

/**
 * Opens the database DATABASE_URL names (read once by the configuration; a URL, as tests and
 * benchmarks give, is read the same way) and brings its schema up to date. For SQLite it creates
 * the folder if needed and turns on WAL with durable commits; for PostgreSQL it retries an
 * unreachable server for a few seconds (it may be starting beside us). Rejects with a
 * DatabaseOpenError (its cause being the driver's) when the database cannot be reached or migrated.
 */
export async function openDatabase(
  database: DatabaseTarget | string,
  { onStatement }: OpenOptions = {},
): Promise<SqlDatabase> {
  const target = typeof database === 'string' ? parseDatabaseUrl(database) : database
  const description = describeDatabase(target)
  const failed = (reason: string, fix: string, cause: unknown): DatabaseOpenError =>
    new DatabaseOpenError(
      `could not open the ${target.engine} database ${description}: ${reason}`,
      fix,
      cause === undefined ? undefined : { cause },
    )
  let opened: SqlDatabase | undefined
  try {
    // Kysely times each statement only when it has a log to tell.
    const statementLog = onStatement === undefined ? undefined : kyselyLogOf(onStatement)
    const { db, log } =
      target.engine === 'sqlite'
        ? openSqlite(target.path, failed, statementLog)
        : { db: openPostgres(target.connectionString, statementLog), log: undefined }
    opened = sqlDatabase(db, target, { description, log, onStatement })
    if (target.engine === 'postgres') {
      await waitForPostgres(db, `${target.host}:${target.port}`, failed)
    }
    await migrateToLatest(db, target.engine)
    return opened
  } catch (error) {
    await opened?.close().catch(() => undefined)
    if (error instanceof DatabaseOpenError) throw error
    throw failed(
      oneLine(error),
      target.engine === 'sqlite'
        ? 'Check that DATABASE_URL names a SQLite file this user can write.'
        : 'Check the user, password and database name in DATABASE_URL, and their rights.',
      error,
    )
  }
}

type Failure = (reason: string, fix: string, cause: unknown) => DatabaseOpenError

const SQLITE_FIX = 'Set DATABASE_URL=sqlite:PATH to a file in a folder this user can write.'

/**
 * Kernel file systems hold no database. Under /proc, Node's `mkdirSync(…, { recursive: true })`
 * even spins forever: the kernel answers ENOENT (not EPERM) for a new entry, Node reads that as
 * "the parent is missing", finds the parent exists, and tries the child again (nodejs/node has
 * the same loop for a dangling symlink). `makeFolder` below cannot loop; this names the mistake.
 */
const KERNEL_FILE_SYSTEMS = ['/proc', '/sys']

type StatementLog = KyselyConfig['log']

function openSqlite(
  path: string,
  failed: Failure,
  statementLog: StatementLog,
): { db: Kysely<NewsWireSchema>; log: WalFlush | undefined } {
  const memory = path === ':memory:'
  const file = resolve(path)
  if (!memory) {
    const kernel = KERNEL_FILE_SYSTEMS.find((root) => file === root || file.startsWith(`${root}/`))
    if (kernel !== undefined) {
      throw failed(`${file} is under ${kernel}, a kernel file system`, SQLITE_FIX, undefined)
    }
    makeFolder(dirname(file), failed)
    const existing = statSync(file, { throwIfNoEntry: false })
    if (existing !== undefined && !existing.isFile()) {
      // A FIFO or a device could block the open; a folder is a plain mistake.
      throw failed(
        `${file} is ${existing.isDirectory() ? 'a folder' : 'not a file'}`,
        SQLITE_FIX,
        undefined,
      )
    }
  }
  let sqlite: SQLite.Database | undefined
  try {
    sqlite = new SQLite(memory ? ':memory:' : file)
    sqlite.pragma('journal_mode = WAL')
  } catch (error) {
    sqlite?.close()
    throw failed(`${file}: ${oneLine(error)}`, SQLITE_FIX, error)
  }
  // FULL: a commit is on disk before it returns; NORMAL could lose the last ones on power loss.
  // The store's writes commit under NORMAL and then wait for a shared flush of the log off the
  // event loop before they answer (sqlite-wal-flush.ts): the same promise, without blocking reads.
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('busy_timeout = 5000')
  const log = walFileOf(sqlite)
  return {
    db: new Kysely<NewsWireSchema>({
      dialect: new SqliteDialect({ database: withPreparedStatements(sqlite) }),
      log: statementLog,
    }),
    log: log === undefined ? undefined : new WalFlush(log),
  }
}

/**
 * `mkdir -p` one level at a time, from the nearest folder that exists, so that every failure
 * names the level at fault and none can loop (see KERNEL_FILE_SYSTEMS). Then checks that the
 * folder is writable, since SQLite writes its -wal and -shm files beside the database.
 */
function makeFolder(folder: string, failed: Failure): void {
  const missing: string[] = []
  let existing = folder
  let stat = statSync(existing, { throwIfNoEntry: false })
  while (stat === undefined && dirname(existing) !== existing) {
    missing.unshift(existing)
    existing = dirname(existing)
    stat = statSync(existing, { throwIfNoEntry: false })
  }
  if (stat !== undefined && !stat.isDirectory()) {
    throw failed(`${existing} is a file, not a folder`, SQLITE_FIX, undefined)
  }
  for (const level of missing) {
    try {
      mkdirSync(level)
    } catch (error) {
      throw failed(`cannot create the folder ${level} (${errorCode(error)})`, SQLITE_FIX, error)
    }
  }
  try {
    accessSync(folder, constants.W_OK)
  } catch (error) {
    throw failed(`cannot write in the folder ${folder} (${errorCode(error)})`, SQLITE_FIX, error)
  }
}

/** How long an unreachable PostgreSQL is retried at start before giving up. */
export const POSTGRES_RETRY_MS = 5_000

/**
 * Waits until PostgreSQL answers, retrying connection failures with backoff for at most
 * POSTGRES_RETRY_MS; a refusal by the server itself (a wrong password, a missing database) is
 * final at once.
 */
async function waitForPostgres(
  db: Kysely<NewsWireSchema>,
  address: string,
  failed: Failure,
): Promise<void> {
  const started = Date.now()
  for (let delay = 250; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      await sql`select 1`.execute(db)
      return
    } catch (error) {
      const code = errorCode(error)
      if (PG_REFUSALS[code] !== undefined) throw failed(oneLine(error), PG_REFUSALS[code], error)
      // A SQLSTATE other than "cannot connect now" (57P03) means the server answered.
      if (/^[0-9A-Z]{5}$/.test(code) && code !== '57P03') throw error
      const waited = Date.now() - started
      if (waited + delay > POSTGRES_RETRY_MS) {
        throw failed(
          `nothing answers at ${address} (${code === 'unknown' ? oneLine(error) : code}) after ${Math.ceil(waited / 1000)} s`,
          'Start PostgreSQL, or fix the host and port in DATABASE_URL.',
          error,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
}

/** SQLSTATEs an operator fixes in DATABASE_URL or in PostgreSQL, not by waiting. */
const PG_REFUSALS: Readonly<Record<string, string>> = {
  '28P01': 'Check the user and password in DATABASE_URL.',
  '28000': 'Check the user in DATABASE_URL, and that pg_hba.conf lets it in.',
  '3D000': 'Create that database (createdb NAME), or fix its name in DATABASE_URL.',
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code
    if (typeof code === 'string') return code
  }
  return 'unknown'
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\s*\n\s*/g, ' ').trim()
}

function openPostgres(
  connectionString: string,
  statementLog: StatementLog,
): Kysely<NewsWireSchema> {
  return new Kysely<NewsWireSchema>({
    dialect: new PostgresDialect({ pool: openPostgresPool(connectionString) }),
    log: statementLog,
  })
}

/**
 * The SqlDatabase over an open Kysely instance (openDatabase's, or a test's own connection);
 * `log` is a SQLite file's write-ahead log, flushed by flushLog.
 */
export function sqlDatabase(
  db: Kysely<NewsWireSchema>,
  target: DatabaseTarget,
  {
    description = describeDatabase(target),
    log,
    onStatement,
  }: { description?: string; log?: WalFlush; onStatement?: StatementObserver } = {},
): SqlDatabase {
  let closing: Promise<void> | undefined
  return {
    db,
    engine: target.engine,
    target,
    description,
    onStatement,
    async flushLog() {
      await log?.flush()
    },
    transaction(work, options) {
      return runTransaction(db, target.engine, work, options, () => this.flushLog())
    },
    unsynced(work) {
      return runUnsynced(db, target.engine, work)
    },
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
      closing ??= db.destroy().finally(() => log?.close())
      return closing
    },
  }
}
