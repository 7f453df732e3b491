import { createHash, randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type {
  LeaseAnswer,
  StreamLeaseLimits,
  StreamLeases,
} from '@/application/ports/stream-leases.port'
import type { SqlDatabase } from '@/adapters/sql/database'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { TableUpkeep, type ServerTableOptions } from '@/adapters/sql/storage-failure'

/** How long a lease counts without being renewed: a crashed server's streams stop counting then. */
export const STREAM_LEASE_TERM_MS = 60_000

/** How long a closed stream counts against its client's reconnects (StreamLeaseLimits). */
export const RECONNECT_WINDOW_MS = 60_000

/**
 * The holder of a released lease: no server's (those are random and never empty), so no renewal
 * touches it. The row stays until its expiry as the record of a reconnect.
 */
const RELEASED = ''

/**
 * The first key of PostgreSQL's advisory locks on a client's leases ('NWes'); the second is a
 * hash of the client. Two-key locks live apart from Kysely's one-key migration lock.
 */
const LEASE_LOCK_CLASS = 0x4e576573

export interface SqlStreamLeasesOptions extends ServerTableOptions {
  /** STREAM_LEASE_TERM_MS unless given. */
  readonly termMs?: number
}

type Db = Kysely<NewsWireSchema>

/**
 * The live streams' leases in the `event_stream_lease` table, so that the cap on one client's
 * open streams holds across every server on the database. A lease names the server process
 * that holds it (a random id per instance), so that a server renews all of its leases in one
 * statement, and a lease that is not renewed within its term (its server is gone) stops
 * counting; the next lease taken for that client, or the next renewal's sweep, deletes it.
 *
 * A released lease is not deleted: it is handed to no holder and kept for RECONNECT_WINDOW_MS,
 * as the record of one of its client's reconnects, so that the reconnect budget holds across
 * servers without a table of its own.
 *
 * Taking a lease counts the client's live leases and reconnects and adds one as one step:
 * SQLite's write lock (BEGIN IMMEDIATE) and, on PostgreSQL, a transaction-scoped advisory lock on
 * the client (safe behind a transaction-pooling PgBouncer, unlike a session lock) keep two
 * servers from both taking the last place. Leases are not a visitor's writing: on SQLite every
 * statement here commits without waiting for the disk, as the write limit's counts do
 * (sqlite-wal-flush.ts), so that no reconnect or renewal runs a disk flush on the event loop. A
 * lease or release that power loss undoes costs at most one place for a minute.
 */
export class SqlStreamLeases implements StreamLeases {
  private readonly holder = randomBytes(12).toString('base64url')
  private readonly termMs: number
  private readonly upkeep: TableUpkeep

  constructor(
    private readonly database: SqlDatabase,
    options: SqlStreamLeasesOptions = {},
  ) {
    this.termMs = options.termMs ?? STREAM_LEASE_TERM_MS
    this.upkeep = new TableUpkeep(options)
  }

  acquire(client: string, limits: StreamLeaseLimits): Promise<LeaseAnswer> {
    return this.upkeep.guard(async () => {
      const now = this.upkeep.now()
      const id = randomBytes(16).toString('base64url')
      return this.lockingClient(client, async (db): Promise<LeaseAnswer> => {
        await db
          .deleteFrom('event_stream_lease')
          .where('client', '=', client)
          .where('expires_at', '<=', now)
          .execute()
        const held = await db
          .selectFrom('event_stream_lease')
          .select([
            sql<number | string>`count(*) filter (where holder <> ${RELEASED})`.as('open'),
            sql<number | string>`count(*) filter (where holder = ${RELEASED})`.as('closed'),
            sql<number | string | null>`min(expires_at) filter (where holder = ${RELEASED})`.as(
              'firstFreed',
            ),
          ])
          .where('client', '=', client)
          .executeTakeFirst()
        if (Number(held?.open ?? 0) >= limits.open) return { taken: false, over: 'open' }
        if (Number(held?.closed ?? 0) >= limits.reconnectsPerMinute) {
          const freed = Number(held?.firstFreed ?? now)
          return { taken: false, over: 'reconnects', retryAfterMs: Math.max(0, freed - now) }
        }
        await db
          .insertInto('event_stream_lease')
          .values({ id, client, holder: this.holder, expires_at: now + this.termMs })
          .execute()
        return { taken: true, id }
      })
    })
  }

  renew(): Promise<void> {
    return this.upkeep.guard(async () => {
      const now = this.upkeep.now()
      await this.unsynced(async (db) => {
        await db
          .updateTable('event_stream_lease')
          .set({ expires_at: now + this.termMs })
          .where('holder', '=', this.holder)
          .execute()
        await this.sweep(db, now)
      })
    })
  }

  release(id: string): Promise<void> {
    return this.upkeep.guard(async () => {
      const now = this.upkeep.now()
      await this.unsynced((db) =>
        db
          .updateTable('event_stream_lease')
          .set({ holder: RELEASED, expires_at: now + RECONNECT_WINDOW_MS })
          .where('id', '=', id)
          .where('holder', '=', this.holder)
          .execute(),
      )
    })
  }

  /**
   * Deletes every expired lease and reconnect, at most once a term per process: the leases of
   * clients that never came back after their server went away. A range scan on the index of
   * expiries.
   */
  private async sweep(db: Db, now: number): Promise<void> {
    if (!this.upkeep.sweepDue(now, this.termMs)) return
    await db.deleteFrom('event_stream_lease').where('expires_at', '<=', now).execute()
  }

  /** Runs `work` outside a transaction, its commits not waited for (transactions.ts). */
  private unsynced<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.database.unsynced(work)
  }

  /** Runs `work` in a transaction that no other taker of `client`'s leases runs beside. */
  private lockingClient<T>(client: string, work: (db: Db) => Promise<T>): Promise<T> {
    // A lease may be forgotten if the power fails: its stream ended with the server anyway.
    return this.database.transaction(
      async (db) => {
        // SQLite's transaction holds the database's write lock already.
        if (this.database.engine === 'postgres') {
          const key = createHash('sha256').update(client).digest().readInt32BE(0)
          await sql`select pg_advisory_xact_lock(${LEASE_LOCK_CLASS}::int4, ${key}::int4)`.execute(
            db,
          )
        }
        return work(db)
      },
      { durable: false },
    )
  }
}
