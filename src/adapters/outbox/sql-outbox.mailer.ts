import type { ContactMessage } from '@/domain/contact-message.entity'
import type { Mailer } from '@/domain/ports/mailer.port'
import type { SqlDatabase } from '@/adapters/sql/database'
import { toIsoInstant } from '@/adapters/sql/newswire.schema'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'

/** A stored contact message. It holds a visitor's address: never serve it over HTTP. */
export interface OutboxMessage {
  readonly id: number
  readonly name: string
  readonly email: string
  readonly message: string
  readonly serviceId?: string
  readonly templateId?: string
  /** ISO 8601 in UTC. */
  readonly receivedAt: string
}

/** What an EmailJS-style request names besides the message itself. */
export interface OutboxDelivery {
  readonly serviceId?: string
  readonly templateId?: string
}

export interface SqlOutboxOptions {
  readonly now?: () => Date
  /** Told about each database failure before it is reported as Unavailable. */
  readonly onError?: StorageErrorListener
}

export const DEFAULT_OUTBOX_LIST_SIZE = 100
export const MAX_OUTBOX_LIST_SIZE = 1000

/**
 * The built-in outbox that stands in for EmailJS: `send` stores the message in the database.
 * `list` and `count` are for the `npm run outbox` command only.
 */
export class SqlOutboxMailer implements Mailer {
  private readonly now: () => Date
  private readonly onError: StorageErrorListener | undefined

  constructor(
    private readonly database: SqlDatabase,
    options: SqlOutboxOptions = {},
  ) {
    this.now = options.now ?? (() => new Date())
    this.onError = options.onError
  }

  send(message: ContactMessage, delivery: OutboxDelivery = {}): Promise<void> {
    return guardStorage(async () => {
      await this.database.db
        .insertInto('outbox_message')
        .values({
          name: message.name,
          email: message.email,
          message: message.message,
          service_id: delivery.serviceId ?? null,
          template_id: delivery.templateId ?? null,
          received_at: this.now().toISOString(),
        })
        .execute()
    }, this.onError)
  }

  /** The newest messages first, at most `limit` (1 to MAX_OUTBOX_LIST_SIZE). */
  list(limit: number = DEFAULT_OUTBOX_LIST_SIZE): Promise<OutboxMessage[]> {
    const bounded = Number.isFinite(limit)
      ? Math.min(Math.max(Math.trunc(limit), 1), MAX_OUTBOX_LIST_SIZE)
      : DEFAULT_OUTBOX_LIST_SIZE
    return guardStorage(async () => {
      const rows = await this.database.db
        .selectFrom('outbox_message')
        .selectAll()
        // The identity follows arrival order, even within one millisecond.
        .orderBy('id', 'desc')
        .limit(bounded)
        .execute()
      return rows.map((row) => ({
        id: Number(row.id),
        name: row.name,
        email: row.email,
        message: row.message,
        ...(row.service_id === null ? {} : { serviceId: row.service_id }),
        ...(row.template_id === null ? {} : { templateId: row.template_id }),
        receivedAt: toIsoInstant(row.received_at),
      }))
    }, this.onError)
  }

  /**
   * Deletes messages once handled, since they hold visitors' addresses: the ones named, or with
   * `through`, every message up to and including that id. Answers how many were deleted.
   */
  delete(
    which: { readonly ids: readonly number[] } | { readonly through: number },
  ): Promise<number> {
    return guardStorage(async () => {
      const query = this.database.db.deleteFrom('outbox_message')
      const bounded =
        'through' in which
          ? query.where('id', '<=', which.through)
          : which.ids.length === 0
            ? undefined
            : query.where('id', 'in', [...which.ids])
      if (bounded === undefined) return 0
      const result = await bounded.executeTakeFirst()
      return Number(result.numDeletedRows)
    }, this.onError)
  }

  count(): Promise<number> {
    return guardStorage(async () => {
      const row = await this.database.db
        .selectFrom('outbox_message')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
        .executeTakeFirstOrThrow()
      return Number(row.count)
    }, this.onError)
  }
}
