import { sql, type Kysely } from 'kysely'
import type {
  RateLimitCounter,
  RateLimitReservation,
} from '@/application/ports/rate-limit-counter.port'
import type { SqlDatabase } from '@/adapters/sql/database'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'

export interface SqlRateLimitStoreOptions {
  /** Told about each database failure before it is reported as Unavailable. */
  readonly onError?: StorageErrorListener
  /** The clock in milliseconds since the epoch; Date.now unless given, so tests can move it. */
  readonly now?: () => number
}

/**
 * The budgets' units in the `rate_limit` table, so that every server on the database draws on
 * one budget per client. Each key's window starts at its first unit and lasts `windowMs`, as in
 * @fastify/rate-limit's own memory store, so that a client's budget never resets early at a
 * clock boundary; the window's end is kept in the row, so every server agrees on it, and names
 * the window a unit goes back to. A key is meant to be counted with one window length.
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

  reserve(key: string, windowMs: number, max: number): Promise<RateLimitReservation> {
    return guardStorage(async () => {
      const now = this.now()
      // A spent budget is refused on a read: a flood past it writes nothing.
      const held = await this.database.db
        .selectFrom('rate_limit')
        .select(['count', 'window_end'])
        .where('key', '=', key)
        .where('window_end', '>', now)
        .executeTakeFirst()
      const window = held === undefined ? undefined : windowOf(held, now)
      if (window !== undefined && window.count >= max) return { granted: false, ...window }
      const taken = await this.take(key, now, windowMs, max)
      await this.sweepEndedWindows(now, windowMs)
      if (taken !== undefined) return { granted: true, ...windowOf(taken, now) }
      // Others took the last units since the read: their window is the one read, or one they
      // started just now.
      return {
        granted: false,
        ...(window ?? { count: max, resetInMs: windowMs, windowEnd: now + windowMs }),
      }
    }, this.onError)
  }

  giveBack(key: string, windowEnd: number): Promise<void> {
    return guardStorage(async () => {
      await this.withoutFlush((db) =>
        db
          .updateTable('rate_limit')
          .set({ count: sql<number>`${sql.ref('count')} - 1` })
          .where('key', '=', key)
          .where('window_end', '=', windowEnd)
          .where('count', '>', 0)
          .execute(),
      )
    }, this.onError)
  }

  /**
   * One statement, so that it is atomic on both engines: takes a unit of `key`'s window when it
   * holds fewer than `max`, or starts a new window with it when the old one has ended; answers
   * the row it counted in, or nothing when the window was full. Two servers taking the last unit
   * at once: one gets it (PostgreSQL locks the row and checks the condition again on the row's
   * newest version; SQLite writes one statement at a time).
   */
  private take(key: string, now: number, windowMs: number, max: number) {
    const ended = sql<boolean>`${sql.ref('rate_limit.window_end')} <= ${now}`
    return this.withoutFlush((db) =>
      db
        .insertInto('rate_limit')
        .values({ key, window_end: now + windowMs, count: 1 })
        .onConflict((conflict) =>
          conflict
            .column('key')
            .doUpdateSet({
              count: sql<number>`case when ${ended} then 1 else ${sql.ref('rate_limit.count')} + 1 end`,
              window_end: sql<number>`case when ${ended} then ${sql.ref('excluded.window_end')} else ${sql.ref('rate_limit.window_end')} end`,
            })
            .where(sql<boolean>`${ended} or ${sql.ref('rate_limit.count')} < ${max}`),
        )
        .returning(['count', 'window_end'])
        .executeTakeFirst(),
    )
  }

  /**
   * Runs `count` on SQLite without waiting for the disk at its commit (`synchronous = NORMAL`
   * for that statement alone, on the connection's own turn, then the setting it had), and on
   * PostgreSQL as it is. A unit taken or given back is not a visitor's writing, and it stays as
   * durable as any acknowledged write: in WAL mode the commit is written to the log at once, so
   * it survives the process being killed, and the log is append-only, so the flush of the next
   * durable commit (the write this unit let through, or any other) carries it to the disk too.
   * Power lost before that flush can forget only units of writes never acknowledged. The write
   * itself is still answered only once it is on the disk (see WalFlush); its unit does not cost
   * a second wait.
   */
  private withoutFlush<T>(count: (db: Kysely<NewsWireSchema>) => Promise<T>): Promise<T> {
    return this.database.unsynced(count)
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

/** A row's window as a reservation tells it, at `now`. */
function windowOf(
  row: { count: number; window_end: number | string },
  now: number,
): Omit<RateLimitReservation, 'granted'> {
  const windowEnd = Number(row.window_end)
  return { count: Number(row.count), resetInMs: windowEnd - now, windowEnd }
}
