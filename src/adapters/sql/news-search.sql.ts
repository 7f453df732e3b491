import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely'
import type { StoredNews } from '@/domain/rules/news-history.rules'
import {
  searchDocumentOf,
  type SearchDocument,
  type SearchTier,
} from '@/domain/rules/search-query.rules'
import type { Engine } from '@/application/database-target'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'

/**
 * The search index's part of each write, and the match conditions of each tier, per engine.
 * Both engines index the words the domain folded (rules/search-query.rules.ts), never the raw
 * text, so they find exactly what the memory store finds:
 *   - SQLite: an FTS5 table of live posts (news_search), contentless, keyed by the post's
 *     search_seq; the store deletes and re-adds a post's row in the transaction of each write
 *     (a trashed post is left out, a restored one comes back).
 *   - PostgreSQL: two tsvector columns of news built with array_to_tsvector from the same words
 *     (no parser, no dictionary, no `unaccent` extension needed), set by the same statement that
 *     writes the post, under a GIN index partial to live posts.
 * Each tier is then one query in publication order (search_seq, newest first), which an engine
 * can stop reading after the page: FTS5 walks its rowids backwards, PostgreSQL may walk the
 * search_seq index and test each post, or intersect the GIN index and sort, as it judges cheaper.
 */

type Db = Kysely<NewsWireSchema>

/** FTS5's index of live posts; see NewsSearchTable. */
export const SQLITE_SEARCH_TABLE = 'news_search'

/** The next search_seq on SQLite, read inside the write's transaction, which holds the lock. */
const NEXT_SQLITE_SEQ = sql<number>`(select coalesce(max(search_seq), 0) + 1 from news)`

/** What a post's insert sets besides the post's own columns. */
export function searchInsertValues(engine: Engine, item: StoredNews) {
  // PostgreSQL's identity numbers the post.
  return engine === 'postgres' ? postgresVectors(item) : { search_seq: NEXT_SQLITE_SEQ }
}

/**
 * What a post's update sets besides the post's own columns. On SQLite, a post an older release
 * wrote during a rolling upgrade has no search_seq yet: it gets the next one, and so an index row.
 */
export function searchUpdateValues(engine: Engine, item: StoredNews) {
  return engine === 'postgres'
    ? postgresVectors(item)
    : { search_seq: sql<number>`coalesce(search_seq, ${NEXT_SQLITE_SEQ})` }
}

/** The words as one text, as FTS5 indexes them and PostgreSQL's backfill splits them. */
export function wordsText(words: readonly string[]): string {
  return words.join(' ')
}

/** The title's words, and every word of the post (title, author and body), once each. */
export function indexedWords(document: SearchDocument): {
  readonly title: readonly string[]
  readonly all: readonly string[]
} {
  return { title: document.title, all: [...new Set([...document.title, ...document.rest])] }
}

function postgresVectors(item: StoredNews) {
  const { title, all } = indexedWords(searchDocumentOf(item))
  return {
    search_vector: sql<string>`array_to_tsvector(${[...all]}::text[])`,
    title_vector: sql<string>`array_to_tsvector(${[...title]}::text[])`,
  }
}

/**
 * Brings a post's row of SQLite's FTS5 index in line with the post just written, in the same
 * transaction: its new words for a live post, no row for a trashed one. A `fresh` post (just
 * inserted, under a search_seq never used) has no row to delete: skipping the delete, which a
 * contentless FTS5 table makes costly, saves about a seventh of a new post's server time.
 */
export async function reindexSqlite(
  db: Db,
  seq: number,
  item: StoredNews,
  fresh = false,
): Promise<void> {
  if (!fresh) await db.deleteFrom(SQLITE_SEARCH_TABLE).where('rowid', '=', seq).execute()
  if (item.deletedAt !== null) return
  const document = searchDocumentOf(item)
  await db
    .insertInto(SQLITE_SEARCH_TABLE)
    .values({ rowid: seq, title: wordsText(document.title), rest: wordsText(document.rest) })
    .execute()
}

/** A word as an FTS5 string: quoted, so that no word is read as an operator. */
function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`
}

/** The FTS5 query of one tier: every word anywhere, and the tier's condition on the title. */
export function sqliteTierMatch(tier: SearchTier, terms: readonly string[]): string {
  const all = `(${terms.map(ftsString).join(' AND ')})`
  const any = `(${terms.map(ftsString).join(' OR ')})`
  switch (tier) {
    case 2:
      return `{title} : ${all}`
    case 1:
      return `(${all} AND ({title} : ${any})) NOT ({title} : ${all})`
    case 0:
      return `${all} NOT ({title} : ${any})`
  }
}

/** A word as a tsquery lexeme: quoted, taken as it is, with no weight or prefix. */
function tsLexeme(term: string): string {
  return `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`
}

function tsquery(terms: readonly string[], operator: '&' | '|'): RawBuilder<string> {
  return sql<string>`${terms.map(tsLexeme).join(` ${operator} `)}::tsquery`
}

/** PostgreSQL's conditions of one tier: every word anywhere, and the tier's on the title. */
export function postgresTierMatch(
  tier: SearchTier,
  terms: readonly string[],
): readonly Expression<SqlBool>[] {
  const all = sql<SqlBool>`search_vector @@ ${tsquery(terms, '&')}`
  const titleAll = sql<SqlBool>`title_vector @@ ${tsquery(terms, '&')}`
  const titleAny = sql<SqlBool>`title_vector @@ ${tsquery(terms, '|')}`
  switch (tier) {
    case 2:
      return [all, titleAll]
    case 1:
      return [all, titleAny, sql<SqlBool>`not (${titleAll})`]
    case 0:
      return [all, sql<SqlBool>`not (${titleAny})`]
  }
}
