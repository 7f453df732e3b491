import { sql, type Kysely } from 'kysely'
import type { RateLimitCounter, RateLimitHit } from '@/domain/ports/rate-limit-counter.port'
import type { SqlDatabase } from '@/adapters/sql/database'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { withoutSyncAtCommit } from '@/adapters/sql/sqlite-wal-flush'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'

export interface SqlRateLimitStoreOptions {
  /** Told about each database failure before it is reported as Unavailable. */
  readonly onError?: StorageErrorListener
  /** The clock in milliseconds since the epoch; Date.now unless given, so tests can move it. */
  readonly now?: () => number
}

/**
 * The write limit's counts in the `rate_limit` table, so that every server on the database
 * draws on one budget per client. Each key's window starts at its first hit and lasts
 * `windowMs`, as in @fastify/rate-limit's own memory store, so that a client's budget never
 * resets early at a clock boundary; the window's end is kept in the row, so every server agrees
 * on it. A key is meant to be counted with one window length.
 */
export class SqlRateLimitStore implements RateLimitCounter {
  private readonly now: () => number
  private readonly onError: StorageErrorListener | undefined
  /** Before this instant this process does not sweep again: once a window is plenty. */
  private nextSweepAt = 0

  constructor(
    private readonly database: SqlDatabase,
    options: SqlRateLimitStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now
    this.onError = options.onError
  }

  hit(key: string, windowMs: number): Promise<RateLimitHit> {
    return guardStorage(async () => {
      const now = this.now()
      const ended = sql<boolean>`${sql.ref('rate_limit.window_end')} <= ${now}`
      // One statement, so that two servers counting the same key at once both count. A key
      // whose window has ended starts a new one at this hit.
      const row = await this.withoutFlush((db) =>
        db
          .insertInto('rate_limit')
          .values({ key, window_end: now + windowMs, count: 1 })
          .onConflict((conflict) =>
            conflict.column('key').doUpdateSet({
              count: sql<number>`case when ${ended} then 1 else ${sql.ref('rate_limit.count')} + 1 end`,
              window_end: sql<number>`case when ${ended} then ${sql.ref('excluded.window_end')} else ${sql.ref('rate_limit.window_end')} end`,
            }),
          )
          .returning(['count', 'window_end'])
          .executeTakeFirstOrThrow(),
      )
      await this.sweepEndedWindows(now, windowMs)
      return { count: Number(row.count), resetInMs: Number(row.window_end) - now }
    }, this.onError)
  }

  peek(key: string, windowMs: number): Promise<RateLimitHit> {
    return guardStorage(async () => {
      const now = this.now()
      const row = await this.database.db
        .selectFrom('rate_limit')
        .select(['count', 'window_end'])
        .where('key', '=', key)
        .where('window_end', '>', now)
        .executeTakeFirst()
      return row === undefined
        ? { count: 0, resetInMs: windowMs }
        : { count: Number(row.count), resetInMs: Number(row.window_end) - now }
    }, this.onError)
  }

  /**
   * Runs `count` on SQLite without waiting for the disk at its commit (`synchronous = NORMAL`
   * for that statement alone, on the connection's own turn, then the setting it had), and on
   * PostgreSQL as it is. A count is not a visitor's writing, and it stays as durable as any
   * acknowledged write: in WAL mode the commit is written to the log at once, so it survives
   * the process being killed, and the log is append-only, so the flush of the next durable
   * commit (the write this count let through, or any other) carries it to the disk too. Power
   * lost before that flush can forget only counts whose writes were never acknowledged. The
   * write itself is still answered only once it is on the disk (see WalFlush); its count no
   * longer costs a second wait.
   */
  private withoutFlush<T>(count: (db: Kysely<NewsWireSchema>) => Promise<T>): Promise<T> {
    const { db, engine } = this.database
    if (engine !== 'sqlite') return count(db)
    // One connection held: no other request's transaction is open on it meanwhile.
    return db.connection().execute((connection) => withoutSyncAtCommit(connection, count))
  }

  /**
   * Deletes the keys whose windows have ended, at most once a window per process: a range scan
   * on the index of the windows' ends. A failed sweep waits for the next.
   */
  private async sweepEndedWindows(now: number, windowMs: number): Promise<void> {
    if (now < this.nextSweepAt) return
    this.nextSweepAt = now + windowMs
    await this.database.db
      .deleteFrom('rate_limit')
      .where('window_end', '<=', now)
      .execute()
      .catch((error: unknown) => this.onError?.(error))
  }
}
