import { sql } from 'kysely'
import type { RateLimitCounter, RateLimitHit } from '@/domain/ports/rate-limit-counter.port'
import type { SqlDatabase } from '@/adapters/sql/database'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'

export interface SqlRateLimitStoreOptions {
  /** Told about each database failure before it is reported as Unavailable. */
  readonly onError?: StorageErrorListener
  /** The clock in milliseconds since the epoch; Date.now unless given, so tests can move it. */
  readonly now?: () => number
}

/**
 * The write limit's counts in the `rate_limit` table, so that every server on the database
 * draws on one budget per client. Windows are fixed and aligned to the epoch, so every server
 * agrees which window a hit falls in without asking the others. A key is meant to be counted
 * with one window length.
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
      const windowEnd = windowEndOf(now, windowMs)
      // One statement, so that two servers counting the same key at once both count.
      const row = await this.database.db
        .insertInto('rate_limit')
        .values({ window_end: windowEnd, key, count: 1 })
        .onConflict((conflict) =>
          conflict
            .columns(['window_end', 'key'])
            .doUpdateSet({ count: sql<number>`${sql.ref('rate_limit.count')} + 1` }),
        )
        .returning('count')
        .executeTakeFirstOrThrow()
      await this.sweepEndedWindows(now, windowMs)
      return { count: Number(row.count), resetInMs: windowEnd - now }
    }, this.onError)
  }

  /**
   * Deletes the windows that have ended, on this process's first hit in each window: a range
   * scan on the primary key, which leads with the window's end. A failed sweep waits for the next.
   */
  private async sweepEndedWindows(now: number, windowMs: number): Promise<void> {
    if (now < this.nextSweepAt) return
    this.nextSweepAt = windowEndOf(now, windowMs)
    await this.database.db
      .deleteFrom('rate_limit')
      .where('window_end', '<=', now)
      .execute()
      .catch((error: unknown) => this.onError?.(error))
  }
}

/** The end of the fixed window that holds `now`: windows start at multiples of their length. */
export function windowEndOf(now: number, windowMs: number): number {
  return (Math.floor(now / windowMs) + 1) * windowMs
}
