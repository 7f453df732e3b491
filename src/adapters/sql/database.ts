import { Kysely, PostgresDialect, sql } from 'kysely'
import {
  DatabaseOpenError,
  errorCode,
  oneLine,
  type Failure,
} from '@/adapters/sql/database-open-error'
import { migrateToLatest } from '@/adapters/sql/newswire.migrations'
import { openPostgresPool } from '@/adapters/sql/postgres-pool'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { kyselyLogOf, type StatementObserver } from '@/adapters/sql/statement-timing'
import {
  runLateTransaction,
  runTransaction,
  runUnsynced,
  type TransactionOptions,
} from '@/adapters/sql/transactions'
import { openSqlite, type StatementLog } from '@/adapters/sql/sqlite-open'
import type { WalFlush } from '@/adapters/sql/sqlite-wal-flush'
import {
  describeDatabase,
  parseDatabaseUrl,
  type DatabaseTarget,
  type PostgresTarget,
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
  /**
   * As `transaction`, but on PostgreSQL begun only when `work` calls `begin`; work that does not
   * runs one statement alone (runLateTransaction).
   */
  lateTransaction<T>(
    work: (db: Kysely<NewsWireSchema>, begin: () => Promise<void>) => Promise<T>,
    options: TransactionOptions,
  ): Promise<T>
  /** Runs `work` outside a transaction, its commits not waited for (transactions.ts). */
  unsynced<T>(work: (db: Kysely<NewsWireSchema>) => Promise<T>): Promise<T>
  /** True when the database answers a trivial query; never rejects. */
  ping(): Promise<boolean>
  /** Closes the connection or pool; later calls do nothing. */
  close(): Promise<void>
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
        : { db: openPostgres(target, statementLog), log: undefined }
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

function openPostgres(
  { connectionString, preparedStatements }: PostgresTarget,
  statementLog: StatementLog,
): Kysely<NewsWireSchema> {
  return new Kysely<NewsWireSchema>({
    dialect: new PostgresDialect({
      pool: openPostgresPool(connectionString, { preparedStatements }),
    }),
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
    lateTransaction(work, options) {
      return runLateTransaction(db, target.engine, work, options, () => this.flushLog())
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
