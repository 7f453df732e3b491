import type { ColumnType, Generated } from 'kysely'

/**
 * An instant: SQLite keeps it as ISO 8601 text with milliseconds, PostgreSQL as timestamptz
 * (read back as a Date). Both order exactly. It is written once and never updated.
 */
export type InstantColumn = ColumnType<Date | string, string, never>

/** An instant that a later write may change. */
export type MutableInstantColumn = ColumnType<Date | string, string, string>

/** An instant that may be absent, and that a later write may set or clear. */
export type OptionalInstantColumn = ColumnType<Date | string | null, string | null, string | null>

export interface NewsTable {
  id: string
  title: string
  body: string
  author: string
  created_at: InstantColumn
  updated_at: MutableInstantColumn
  /** The number of the newest revision in news_revision. */
  revision: number
  /** Null while the post is live; the instant it went to the trash otherwise. */
  deleted_at: OptionalInstantColumn
}

/** One version of a post: append-only, (news_id, revision) is its primary key. */
export interface NewsRevisionTable {
  news_id: string
  revision: number
  title: string
  body: string
  author: string
  action: string
  at: InstantColumn
  restored_from: number | null
}

/** A create's Idempotency-Key, shared by every server on the database. */
export interface IdempotencyKeyTable {
  key: string
  fingerprint: string
  news_id: string
  created_at: MutableInstantColumn
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

/** The write limit's count for one client key in one fixed window, shared by every server. */
export interface RateLimitTable {
  /** The window's end in milliseconds since the epoch; PostgreSQL reads a bigint back as text. */
  window_end: ColumnType<number | string, number, number>
  key: string
  count: number
}

/** The change signal: one row (id 1) whose version every committed write raises. */
export interface SiteVersionTable {
  id: number
  /** PostgreSQL reads a bigint back as text. */
  version: ColumnType<number | string, number, number>
}

/** The tables Kysely may touch, named as in SQL. */
export interface NewsWireSchema {
  news: NewsTable
  news_revision: NewsRevisionTable
  idempotency_key: IdempotencyKeyTable
  outbox_message: OutboxMessageTable
  rate_limit: RateLimitTable
  site_version: SiteVersionTable
}

export function toIsoInstant(value: Date | string): string {
  return typeof value === 'string' ? new Date(value).toISOString() : value.toISOString()
}
