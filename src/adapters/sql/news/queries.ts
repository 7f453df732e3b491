import type { Editor } from '@/domain/editor'
import type { ChangeFilter } from '@/domain/ports/news-store.port'
import { sql, type Compilable, type CompiledQuery, type Kysely } from 'kysely'
import type { SearchTier } from '@/domain/rules/search-query.rules'
import type { Engine } from '@/adapters/sql/database'
import {
  postgresTierMatch,
  sqliteTierMatch,
  SQLITE_SEARCH_TABLE,
} from '@/adapters/sql/news-search.sql'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { NEWS_COLUMNS, REVISION_COLUMNS } from '@/adapters/sql/news/mapper'
import type { KeysetPosition } from '@/adapters/shared/keyset-cursor'

/* The news store's reads, each served by an index; exported so that tests can EXPLAIN them. */

type Db = Kysely<NewsWireSchema>

/**
 * One post by id, with whether the operator protected it: the read every write's transaction
 * starts with, so that a protection and a visitor's write can never both go through.
 */
export function selectNews(db: Db, id: string) {
  return db
    .selectFrom('news')
    .select(NEWS_COLUMNS)
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('news_protection')
            .select('news_protection.news_id')
            .whereRef('news_protection.news_id', '=', 'news.id'),
        )
        .as('protected'),
    )
    .where('id', '=', id)
}

// Stand-ins for the values of a query compiled once: no real cursor or id equals them.
export const AT = '\u0000at'
export const ID = '\u0000id'

/**
 * A read compiled once, with stand-ins where its values go; the function it returns puts the
 * values (given in the stand-ins' order) in their places. Building and compiling a Kysely query
 * cost about as much as SQLite running it for a post by id, and a third of that for a page.
 * Every stand-in must appear among the compiled parameters, and nothing else may.
 */
export function compiledOnce<R>(
  query: Compilable<R>,
  standIns: readonly unknown[],
): (values: readonly unknown[]) => CompiledQuery<R> {
  const compiled = query.compile()
  const slots = compiled.parameters.map((parameter) => standIns.indexOf(parameter))
  if (slots.includes(-1) || new Set(slots).size !== standIns.length) {
    throw new Error(`the query's parameters are not its stand-ins: ${compiled.sql}`)
  }
  return (values) => ({ ...compiled, parameters: slots.map((slot) => values[slot]) })
}

/**
 * The list query: live posts, newest first, strictly after `after`, served by the partial
 * index on (created_at DESC, id DESC) where deleted_at is null, whatever the table's size.
 * Exported so that tests can EXPLAIN it.
 *
 * Its limit is written into the SQL, not sent as a value: prepared, the statement is then
 * planned once (PostgreSQL's generic plan), where `limit $1` had it planned again on every run,
 * since the best plan depends on the limit. A page has at most MAX_PAGE_SIZE + 1 rows, so the
 * texts are few.
 */
export function selectNewsPage(db: Db, limit: number, after?: KeysetPosition) {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a page's limit: ${limit}`)
  const page = db
    .selectFrom('news')
    .select(NEWS_COLUMNS)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(sql.lit(limit))
  return after === undefined
    ? page
    : page.where(({ eb, refTuple, tuple }) =>
        eb(refTuple('created_at', 'id'), '<', tuple(after.at, after.id)),
      )
}

/**
 * One tier of a search: live posts holding every word, with the tier's condition on the title,
 * newest published first, before `before` when given. SQLite reads its FTS5 index backwards by
 * rowid (the post's search_seq) and stops at `limit`; PostgreSQL chooses between walking
 * search_seq's index and intersecting the GIN index. Exported for EXPLAIN.
 */
export function selectSearchTier(
  db: Db,
  engine: Engine,
  terms: readonly string[],
  tier: SearchTier,
  before: number | undefined,
  limit: number,
) {
  if (engine === 'sqlite') {
    const page = db
      .selectFrom(SQLITE_SEARCH_TABLE)
      .innerJoin('news', 'news.search_seq', `${SQLITE_SEARCH_TABLE}.rowid`)
      .select([...NEWS_COLUMNS.map((column) => `news.${column}` as const), 'news.search_seq'])
      .where(SQLITE_SEARCH_TABLE, 'match', sqliteTierMatch(tier, terms))
      .where('news.deleted_at', 'is', null)
      .orderBy(`${SQLITE_SEARCH_TABLE}.rowid`, 'desc')
      .limit(limit)
    return before === undefined ? page : page.where(`${SQLITE_SEARCH_TABLE}.rowid`, '<', before)
  }
  const page = db
    .selectFrom('news')
    .select([...NEWS_COLUMNS, 'search_seq'])
    .where('deleted_at', 'is', null)
    .where(({ and }) => and([...postgresTierMatch(tier, terms)]))
    .orderBy('search_seq', 'desc')
    .limit(limit)
  return before === undefined ? page : page.where('search_seq', '<', before)
}

/**
 * The trash query: trashed posts, newest deletion first, strictly after `after`, served by the
 * partial index on (deleted_at DESC, id DESC) where deleted_at is not null. Exported for EXPLAIN.
 */
export function selectTrashPage(db: Db, limit: number, after?: KeysetPosition) {
  const page = db
    .selectFrom('news')
    .select(NEWS_COLUMNS)
    .where('deleted_at', 'is not', null)
    .orderBy('deleted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
  return after === undefined
    ? page
    : page.where(({ eb, refTuple, tuple }) =>
        eb(refTuple('deleted_at', 'id'), '<', tuple(after.at, after.id)),
      )
}

/**
 * The history query: a post's revisions, newest first, older than `before`, served by the
 * primary key (news_id, revision) however long the history. Exported for EXPLAIN.
 */
export function selectRevisionPage(db: Db, newsId: string, limit: number, before?: number) {
  const page = db
    .selectFrom('news_revision')
    .select(REVISION_COLUMNS)
    .where('news_id', '=', newsId)
    .orderBy('revision', 'desc')
    .limit(limit)
  return before === undefined ? page : page.where('revision', '<', before)
}

/**
 * The query the operator's undo starts from: a range of the index on news_revision(at).
 * Duplicates are dropped by the caller; a DISTINCT here leads SQLite to scan the whole table
 * in primary-key order instead. Exported for EXPLAIN.
 */
export function selectChangedSince(db: Db, instant: string, filter: ChangeFilter = {}) {
  let query = db.selectFrom('news_revision').select('news_id').where('at', '>=', instant)
  if (filter.until !== undefined) query = query.where('at', '<', filter.until)
  if (filter.editor !== undefined) query = query.where('editor', '=', filter.editor)
  return query
}

/**
 * The recent changes: the change log newest first, older than `before` when given, each joined
 * to the revision it made (news_revision's primary key) for its editor and title. All of them
 * walk the log's primary key backwards; one editor's start from news_revision's editor index
 * and reach the log by (news_id, revision). Exported for EXPLAIN.
 */
export function selectChangePage(db: Db, limit: number, before?: number, editor?: Editor) {
  let page = db
    .selectFrom('news_change as c')
    .innerJoin('news_revision as r', (join) =>
      join.onRef('r.news_id', '=', 'c.news_id').onRef('r.revision', '=', 'c.revision'),
    )
    .select(['c.seq', 'c.news_id', 'c.kind', 'c.revision', 'c.at', 'r.editor', 'r.title'])
    .select('r.hidden_at')
    .orderBy('c.seq', 'desc')
    .limit(limit)
  if (before !== undefined) page = page.where('c.seq', '<', before)
  if (editor !== undefined) page = page.where('r.editor', '=', editor)
  return page
}
