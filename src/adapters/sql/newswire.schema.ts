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
  /**
   * The post's place in publication order, for search's ranking and cursors (news-search.sql.ts):
   * set once by the insert (SQLite) or by an identity (PostgreSQL; read back as text), unique,
   * never renumbered. Null only for a SQLite post an older release wrote after the upgrade,
   * until its next write gives it one.
   */
  search_seq: ColumnType<number | string | null, number | undefined, number>
  /** PostgreSQL only: the folded words of title, author and body, for the GIN index. */
  search_vector: ColumnType<never, string | undefined, string>
  /** PostgreSQL only: the folded words of the title alone, to rank title matches first. */
  title_vector: ColumnType<never, string | undefined, string>
}

/**
 * SQLite only: the FTS5 index of live posts (contentless: it keeps the words, not the text),
 * one row per post with `rowid` its search_seq. The hidden column named after the table is
 * what MATCH is asked of.
 */
export interface NewsSearchTable {
  rowid: number
  /** The folded words of the title. */
  title: string
  /** The folded words of the author and the body. */
  rest: string
  news_search: ColumnType<string, never, never>
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
  /** Who made it (domain/editor.ts): a client's pseudonym, `operator` or `unknown`. */
  editor: ColumnType<string, string | undefined, never>
  restored_from: number | null
  /** When the operator hid it (its title, body and author then erased); null otherwise. */
  hidden_at: ColumnType<Date | string | null, string | null | undefined, string | null>
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
  /**
   * The change log holds every change above this seq; the purge removed those at or below it
   * (news_change). A bigint, read back as text on PostgreSQL.
   */
  changes_purged_through: ColumnType<number | string, number | undefined, number>
}

/**
 * The change log behind the live stream: one row per revision appended, written in the same
 * transaction, numbered by the site's version that transaction raised (see SqlNewsStore).
 */
export interface NewsChangeTable {
  /** The site's version once the change committed; a bigint, read back as text on PostgreSQL. */
  seq: ColumnType<number | string, number, never>
  news_id: string
  /** created, edited, deleted or restored (NewsChangeKind). */
  kind: string
  revision: number
  at: InstantColumn
}

/**
 * One open live stream, counted against its client's cap by every server; renewed by the
 * server that holds it, and no longer counted once `expires_at` has passed (its server is gone).
 */
export interface EventStreamLeaseTable {
  id: string
  /** The client's address, as the cap counts it (an IPv6 client by its /64). */
  client: string
  /** The server process that holds it, which renews its leases in one statement. */
  holder: string
  /** Milliseconds since the epoch; a bigint, read back as text on PostgreSQL. */
  expires_at: ColumnType<number | string, number, number>
}

/** A secret of the site's, made once and shared by every server (site-secrets.ts). */
export interface SiteSecretTable {
  name: string
  /** Base64. */
  value: string
}

/** A block of a client's writes: by its pseudonym (`editor`), or by a CIDR range (`range`). */
export interface ClientBlockTable {
  id: string
  kind: string
  target: string
  reason: string
  created_at: InstantColumn
  /** Null for a block without an end. */
  expires_at: OptionalInstantColumn
}

/** A post that only the operator may change. */
export interface NewsProtectionTable {
  news_id: string
  reason: string
  created_at: InstantColumn
}

/** One thing the operator did with `npm run news`, kept for good. */
export interface OperatorActionTable {
  /** Random; the log is read in the order of `at`, then `id`. */
  id: string
  at: InstantColumn
  operator: string
  action: string
  target: string
  reason: string
  detail: string
}

/**
 * What the sitemap knows of one block of search_seq numbers (migration 0014), kept by triggers
 * on news in each write's transaction. Integers are bigints on PostgreSQL, read back as text.
 */
export interface SitemapBlockTable {
  /** search_seq / SITEMAP_BLOCK_POSTS. */
  block: ColumnType<number | string, never, never>
  /** Its live posts. */
  live: ColumnType<number | string, never, never>
  /** Raised by every write to a post in it (an update by 2: out, then in), never lowered. */
  changes: ColumnType<number | string, never, never>
  /** The latest edit or deletion of a post in it. */
  changed_at: ColumnType<Date | string, never, never>
}

/** The tables Kysely may touch, named as in SQL. */
export interface NewsWireSchema {
  news: NewsTable
  news_revision: NewsRevisionTable
  news_search: NewsSearchTable
  idempotency_key: IdempotencyKeyTable
  outbox_message: OutboxMessageTable
  rate_limit: RateLimitTable
  site_version: SiteVersionTable
  news_change: NewsChangeTable
  event_stream_lease: EventStreamLeaseTable
  site_secret: SiteSecretTable
  client_block: ClientBlockTable
  news_protection: NewsProtectionTable
  operator_action: OperatorActionTable
  sitemap_block: SitemapBlockTable
}

export function toIsoInstant(value: Date | string): string {
  return typeof value === 'string' ? new Date(value).toISOString() : value.toISOString()
}
