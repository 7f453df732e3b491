import { sql, type Kysely } from 'kysely'
import type { Engine } from '@/application/database-target'
import { immediateTransaction, withoutSyncAtCommit } from '@/adapters/sql/sqlite-wal-flush'

/*
 * How every SQL adapter runs its writes: the one place that chooses a transaction for each
 * engine. The news store, the stream leases, the rate limit and the migrator all come here.
 *
 * SQLite begins IMMEDIATE, so writers (in this process or another sharing the file) queue for
 * the write lock instead of failing when a read lock cannot be upgraded. Its commits do not wait
 * for the disk on the event loop: a durable transaction waits afterwards for the shared flush of
 * the log, in the thread pool (WalFlush), so other requests run while the disk works.
 *
 * PostgreSQL runs the work again, after a short random pause, when it lost a race and may simply
 * run again (`attempts`), since its transactions lock rows rather than the whole database. There
 * each statement is a round trip; a transaction begun late (runLateTransaction) saves two when
 * its work turns out to be one statement.
 */

export interface TransactionOptions {
  /**
   * Answer only once the commit is on the disk. False for what may be forgotten if the power
   * fails before the next durable commit flushes the log (a unit of a budget, a lease).
   */
  readonly durable: boolean
  /** PostgreSQL: how many times a transaction that lost a race runs; once unless given. */
  readonly attempts?: number
}

/**
 * Runs `work` in one transaction. `flushLog` resolves once every commit made so far is on the
 * disk; without it (the migrator, before the database is wrapped) a durable SQLite transaction
 * syncs at its commit instead.
 */
export async function runTransaction<DB, T>(
  db: Kysely<DB>,
  engine: Engine,
  work: (db: Kysely<DB>) => Promise<T>,
  { durable, attempts = 1 }: TransactionOptions,
  flushLog?: () => Promise<void>,
): Promise<T> {
  if (engine === 'postgres') {
    return withRetries(() => db.transaction().execute((trx) => work(trx)), attempts)
  }
  if (durable && flushLog === undefined)
    return immediateTransaction(db, work, { syncAtCommit: true })
  const result = await immediateTransaction(db, work)
  // Also after a transaction that only read: it may answer a write another request made, whose
  // flush has not ended yet.
  if (durable) await flushLog?.()
  return result
}

/**
 * Runs `work` as runTransaction does, except that on PostgreSQL the transaction begins only
 * when `work` calls `begin` (again and again if it likes): before a statement that must be in
 * one transaction with a statement after it. Work that never calls it runs at most one
 * statement, alone, and PostgreSQL commits a statement alone by itself, all or nothing and
 * durably: one round trip instead of three (begin, the statement, commit). A transaction that
 * has begun is committed when `work` resolves and rolled back when it rejects. On SQLite the
 * transaction begins at once, where beginning costs no round trip, and `begin` does nothing.
 */
export function runLateTransaction<DB, T>(
  db: Kysely<DB>,
  engine: Engine,
  work: (db: Kysely<DB>, begin: () => Promise<void>) => Promise<T>,
  options: TransactionOptions,
  flushLog?: () => Promise<void>,
): Promise<T> {
  if (engine !== 'postgres') {
    return runTransaction(db, engine, (trx) => work(trx, async () => undefined), options, flushLog)
  }
  return withRetries(
    () =>
      db.connection().execute(async (connection) => {
        let begun = false
        const begin = async (): Promise<void> => {
          if (begun) return
          await sql`begin`.execute(connection)
          begun = true
        }
        try {
          const result = await work(connection, begin)
          if (begun) await sql`commit`.execute(connection)
          return result
        } catch (error) {
          // A connection that is gone is not lent again (postgres-pool.ts); the work's failure
          // is what the caller hears.
          if (begun) await sql`rollback`.execute(connection).catch(() => undefined)
          throw error
        }
      }),
    options.attempts ?? 1,
  )
}

/**
 * Runs `work` outside a transaction, each statement its own: on SQLite on one connection held
 * for the call, without sync at commit, so that its commits do not wait for the disk on the event
 * loop. For what may be forgotten if the power fails (see TransactionOptions.durable).
 */
export function runUnsynced<DB, T>(
  db: Kysely<DB>,
  engine: Engine,
  work: (db: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (engine === 'postgres') return work(db)
  return db.connection().execute((connection) => withoutSyncAtCommit(connection, work))
}

// PostgreSQL's codes for a transaction that lost a race and may simply run again:
// serialization_failure, deadlock_detected, and unique_violation (two creates with one
// idempotency key, or two writers of the same revision number).
const RETRYABLE_CODES = new Set(['40001', '40P01', '23505'])

/** Runs `once`, and again while it lost a race, at most `attempts` times in all. */
async function withRetries<T>(once: () => Promise<T>, attempts: number): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await once()
    } catch (error) {
      if (attempt >= Math.max(1, attempts) || !isRetryable(error)) throw error
      // A short, random pause, so that the racers do not collide again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
    }
  }
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && RETRYABLE_CODES.has(code)
}
