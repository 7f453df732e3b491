import type { ColumnType, Generated } from 'kysely'

/**
 * An instant: SQLite keeps it as ISO 8601 text with milliseconds, PostgreSQL as timestamptz
 * (read back as a Date). Both order exactly. It is written once and never updated.
 */
export type InstantColumn = ColumnType<Date | string, string, never>

export interface NewsTable {
  id: string
  title: string
  body: string
  author: string
  created_at: InstantColumn
}

export interface OutboxMessageTable {
  id: Generated<number>
  name: string
  email: string
  message: string
  service_id: string | null
  template_id: string | null
  received_at: InstantColumn
}

/** The tables Kysely may touch, named as in SQL. */
export interface NewsWireSchema {
  news: NewsTable
  outbox_message: OutboxMessageTable
}

export function toIsoInstant(value: Date | string): string {
  return typeof value === 'string' ? new Date(value).toISOString() : value.toISOString()
}
