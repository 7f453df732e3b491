import { SQLITE_SEARCH_TABLE } from '@/adapters/sql/news-search.sql'

/**
 * Every table of the schema, and what a site archive (docs/export-format.md) does with it: the
 * one list that export, import, copy and their digests follow. A migration that adds a table
 * must add it here too, or tests/adapters/sql/site-archive.test.ts fails.
 */

/** How a value is written in an archive: text, an integer (bigints included), or an instant. */
export type ColumnKind = 'text' | 'integer' | 'instant'

export interface ArchiveColumn {
  readonly name: string
  readonly kind: ColumnKind
  readonly nullable?: boolean
}

/** A table whose rows an archive holds, read in the order of its key, a page at a time. */
export interface CarriedTable {
  readonly name: string
  readonly fate: 'carried'
  readonly columns: readonly ArchiveColumn[]
  /** The columns of its primary key, in keyset order. */
  readonly key: readonly string[]
  /** Held only when asked for (`--with-outbox`): visitors' e-mail addresses. */
  readonly optional?: true
  /** Columns an archive leaves out because a load computes them again (the search's words). */
  readonly rebuilt?: readonly string[]
}

/** A table an archive leaves out, and why. */
export interface LeftOutTable {
  readonly name: string
  readonly fate: 'rebuilt' | 'transient' | 'bookkeeping'
  readonly why: string
}

export type ArchiveTable = CarriedTable | LeftOutTable

const text = (name: string, nullable?: true): ArchiveColumn => ({ name, kind: 'text', nullable })
const integer = (name: string, nullable?: true): ArchiveColumn => ({
  name,
  kind: 'integer',
  nullable,
})
const instant = (name: string, nullable?: true): ArchiveColumn => ({
  name,
  kind: 'instant',
  nullable,
})

/** The site's counters; one row (id 1), which every database already has. */
export const SITE_VERSION: CarriedTable = {
  name: 'site_version',
  fate: 'carried',
  columns: [integer('id'), integer('version'), integer('changes_purged_through')],
  key: ['id'],
}

/**
 * The site's secrets (the pseudonyms' key), so that a moved site names its clients as before.
 * A load replaces the target's own, which a server may have made at its first start.
 */
export const SITE_SECRET: CarriedTable = {
  name: 'site_secret',
  fate: 'carried',
  columns: [text('name'), text('value')],
  key: ['name'],
}

export const NEWS: CarriedTable = {
  name: 'news',
  fate: 'carried',
  columns: [
    text('id'),
    text('title'),
    text('body'),
    text('author'),
    instant('created_at'),
    instant('updated_at'),
    integer('revision'),
    instant('deleted_at', true),
    // Search's order and cursors: kept, so that search pages and their ETags stay the same.
    integer('search_seq', true),
  ],
  key: ['id'],
  // PostgreSQL's search words, from title, author and body (site-loader.ts).
  rebuilt: ['search_vector', 'title_vector'],
}

export const OUTBOX_MESSAGE: CarriedTable = {
  name: 'outbox_message',
  fate: 'carried',
  columns: [
    integer('id'),
    text('name'),
    text('email'),
    text('message'),
    text('service_id', true),
    text('template_id', true),
    instant('received_at'),
  ],
  key: ['id'],
  optional: true,
}

/** In the order an archive holds them. */
export const ARCHIVE_TABLES: readonly ArchiveTable[] = [
  SITE_VERSION,
  NEWS,
  {
    name: 'news_revision',
    fate: 'carried',
    columns: [
      text('news_id'),
      integer('revision'),
      text('title'),
      text('body'),
      text('author'),
      text('action'),
      instant('at'),
      text('editor'),
      integer('restored_from', true),
      instant('hidden_at', true),
    ],
    key: ['news_id', 'revision'],
  },
  {
    name: 'news_change',
    fate: 'carried',
    columns: [integer('seq'), text('news_id'), text('kind'), integer('revision'), instant('at')],
    key: ['seq'],
  },
  {
    name: 'idempotency_key',
    fate: 'carried',
    columns: [text('key'), text('fingerprint'), text('news_id'), instant('created_at')],
    key: ['key'],
  },
  {
    name: 'news_protection',
    fate: 'carried',
    columns: [text('news_id'), text('reason'), instant('created_at')],
    key: ['news_id'],
  },
  {
    name: 'client_block',
    fate: 'carried',
    columns: [
      text('id'),
      text('kind'),
      text('target'),
      text('reason'),
      instant('created_at'),
      instant('expires_at', true),
    ],
    key: ['id'],
  },
  {
    name: 'operator_action',
    fate: 'carried',
    columns: [
      text('id'),
      instant('at'),
      text('operator'),
      text('action'),
      text('target'),
      text('reason'),
      text('detail'),
    ],
    key: ['id'],
  },
  OUTBOX_MESSAGE,
  SITE_SECRET,
  {
    name: SQLITE_SEARCH_TABLE,
    fate: 'rebuilt',
    why: "SQLite's search index, rebuilt from the posts as they load",
  },
  {
    name: 'sitemap_block',
    fate: 'rebuilt',
    why: "the sitemap's counts of the posts, kept by triggers as the posts load",
  },
  {
    name: 'rate_limit',
    fate: 'transient',
    why: "the write budget's counts of the current minute",
  },
  {
    name: 'event_stream_lease',
    fate: 'transient',
    why: 'the live streams open now, renewed by the servers that hold them',
  },
  { name: 'kysely_migration', fate: 'bookkeeping', why: 'written by the migrations' },
  { name: 'kysely_migration_lock', fate: 'bookkeeping', why: 'written by the migrations' },
]

export const CARRIED_TABLES: readonly CarriedTable[] = ARCHIVE_TABLES.filter(
  (table): table is CarriedTable => table.fate === 'carried',
)

/** The carried tables an archive made with or without the outbox holds. */
export function carriedTables(withOutbox: boolean): readonly CarriedTable[] {
  return CARRIED_TABLES.filter((table) => withOutbox || table.optional !== true)
}

export function carriedTable(name: string): CarriedTable | undefined {
  return CARRIED_TABLES.find((table) => table.name === name)
}
