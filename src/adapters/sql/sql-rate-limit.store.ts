import { sql, type Kysely, type RawBuilder } from 'kysely'
import type {
  RateLimitCounter,
  RateLimitReservation,
} from '@/application/ports/rate-limit-counter.port'
import type { SqlDatabase } from '@/adapters/sql/database'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { TableUpkeep, type ServerTableOptions } from '@/adapters/sql/storage-failure'

export type SqlRateLimitStoreOptions = ServerTableOptions

/**
 * The budgets' units in the `rate_limit` table, so that every server on the database draws on
 * one budget per client. Each key's window starts at its first unit and lasts `windowMs`, as in
 * @fastify/rate-limit's own memory store, so that a client's budget never resets early at a
 * clock boundary; the window's end is kept in the row, so every server agrees on it, and names
 * the window a unit goes back to. A key is meant to be counted with one window length.
 */
export class SqlRateLimitStore implements RateLimitCounter {
  private readonly upkeep: TableUpkeep

  constructor(
    private readonly database: SqlDatabase,
    options: SqlRateLimitStoreOptions = {},
  ) {
    this.upkeep = new TableUpkeep(options)
  }

  reserve(key: string, windowMs: number, max: number): Promise<RateLimitReservation> {
    return this.upkeep.guard(async () => {
      const now = this.upkeep.now()
      const { held, taken } =
        this.database.engine === 'postgres'
          ? await this.readAndTake(key, now, windowMs, max)
          : await this.readThenTake(key, now, windowMs, max)
      const window = held === undefined ? undefined : windowOf(held, now)
      if (window !== undefined && window.count >= max) return { granted: false, ...window }
      await this.sweepEndedWindows(now, windowMs)
      if (taken !== undefined) return { granted: true, ...windowOf(taken, now) }
      // Others took the last units since the read: their window is the one read, or one they
      // started just now.
      return {
        granted: false,
        ...(window ?? { count: max, resetInMs: windowMs, windowEnd: now + windowMs }),
      }
    })
  }

  /**
   * The key's window as held at `now`, read first, and the unit taken only when that window is
   * not spent: a spent budget is refused on a read, so a flood past it writes nothing.
   */
  private async readThenTake(key: string, now: number, windowMs: number, max: number) {
    const held = await this.heldWindow(this.database.db, key, now).executeTakeFirst()
    if (held !== undefined && held.count >= max) return { held, taken: undefined }
    return {
      held,
      taken: await this.withoutFlush((db) =>
        this.take(db, key, now, windowMs, max).executeTakeFirst(),
      ),
    }
  }

  /**
   * readThenTake in one statement, for PostgreSQL, where each is a round trip: the insert finds
   * no row to insert when the window read is spent, and so writes and locks nothing.
   */
  private async readAndTake(key: string, now: number, windowMs: number, max: number) {
    const { db } = this.database
    const spent = sql<boolean>`exists (select 1 from held where ${sql.ref('held.count')} >= ${max})`
    const take = this.take(db, key, now, windowMs, max, sql<boolean>`not ${spent}`)
    const { rows } = await sql<{
      held_count: number | null
      held_end: string | null
      taken_count: number | null
      taken_end: string | null
    }>`with held as (${this.heldWindow(db, key, now)}), taken as (${take})
      select (select count from held) as held_count, (select window_end from held) as held_end,
             (select count from taken) as taken_count, (select window_end from taken) as taken_end`.execute(
      db,
    )
    const [row] = rows
    const windowOfRow = (count: number | null | undefined, end: string | null | undefined) =>
      count === null || count === undefined || end === null || end === undefined
        ? undefined
        : { count: Number(count), window_end: end }
    return {
      held: windowOfRow(row?.held_count, row?.held_end),
      taken: windowOfRow(row?.taken_count, row?.taken_end),
    }
  }

  /** The key's window that has not ended at `now`, if any. */
  private heldWindow(db: Kysely<NewsWireSchema>, key: string, now: number) {
    return db
      .selectFrom('rate_limit')
      .select(['count', 'window_end'])
      .where('key', '=', key)
      .where('window_end', '>', now)
  }

  giveBack(key: string, windowEnd: number): Promise<void> {
    return this.upkeep.guard(async () => {
      await this.withoutFlush((db) =>
        db
          .updateTable('rate_limit')
          .set({ count: sql<number>`${sql.ref('count')} - 1` })
          .where('key', '=', key)
          .where('window_end', '=', windowEnd)
          .where('count', '>', 0)
          .execute(),
      )
    })
  }

  /**
   * One statement, so that it is atomic on both engines: takes a unit of `key`'s window when it
   * holds fewer than `max`, or starts a new window with it when the old one has ended; answers
   * the row it counted in, or nothing when the window was full (or when `unless` held, which
   * readAndTake gives). Two servers taking the last unit
   * at once: one gets it (PostgreSQL locks the row and checks the condition again on the row's
   * newest version; SQLite writes one statement at a time).
   */
  private take(
    db: Kysely<NewsWireSchema>,
    key: string,
    now: number,
    windowMs: number,
    max: number,
    unless?: RawBuilder<boolean>,
  ) {
    const ended = sql<boolean>`${sql.ref('rate_limit.window_end')} <= ${now}`
    const insert = db.insertInto('rate_limit')
    // The row to insert, as a select that finds none when `unless` holds (readAndTake).
    const values =
      unless === undefined
        ? insert.values({ key, window_end: now + windowMs, count: 1 })
        : insert
            .columns(['key', 'window_end', 'count'])
            .expression(
              db
                .selectNoFrom([
                  sql<string>`${key}::text`.as('key'),
                  sql<number>`${now + windowMs}::bigint`.as('window_end'),
                  sql<number>`1`.as('count'),
                ])
                .where(unless),
            )
    return values
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
    // Once a window is plenty.
    if (!this.upkeep.sweepDue(now, windowMs)) return
    await this.database.db
      .deleteFrom('rate_limit')
      .where('window_end', '<=', now)
      .execute()
      .catch((error: unknown) => this.upkeep.onError?.(error))
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
