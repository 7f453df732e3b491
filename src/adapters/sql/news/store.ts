import type { Kysely } from 'kysely'
import type { NewsChange } from '@/domain/news-change.entity'
import { isNewsId } from '@/domain/news-id'
import type { ChangeLogBounds, NewsChangeLog } from '@/application/ports/change-log.port'
import {
  liveItem,
  trashedItem,
  type PurgeCutoffs,
  type StoredNews,
} from '@/domain/rules/news-history.rules'
import { searchTiers, type SearchQuery } from '@/domain/rules/search-query.rules'
import type { Engine, SqlDatabase } from '@/adapters/sql/database'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { purgeChangeLog, raiseVersion, SqlChangeLog } from '@/adapters/sql/news/change-log'
import { toRecentChange, toRevision, toStoredNews } from '@/adapters/sql/news/mapper'
import {
  AT,
  compiledOnce,
  ID,
  selectChangedSince,
  selectChangePage,
  selectNews,
  selectNewsPage,
  selectRevisionPage,
  selectSearchTier,
  selectTrashPage,
} from '@/adapters/sql/news/queries'
import { SharedReads } from '@/adapters/sql/news/shared-reads'
import { SqlNewsTransaction } from '@/adapters/sql/news/transaction'
import { readerOf, type QueryReader } from '@/adapters/sql/sqlite-search-thread'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'
import { decodeSearchCursor, rankedPage, tiersToRead } from '@/adapters/shared/search-cursor'
import type * as Port from '@/domain/ports/news-store.port'
import * as paging from '@/adapters/shared/keyset-cursor'

type Db = Kysely<NewsWireSchema>

/** The reads of a page of the list of `rows` rows, first or after a cursor, compiled once. */
function pageReads(db: Db, rows: number) {
  return {
    first: compiledOnce(selectNewsPage(db, rows), []),
    after: compiledOnce(selectNewsPage(db, rows, { at: AT, id: ID }), [AT, ID]),
  }
}
type PageQueries = ReturnType<typeof pageReads>

export interface SqlNewsStoreOptions {
  /** Told about each database failure before it is reported as Unavailable. */
  readonly onError?: StorageErrorListener
  /** How many times PostgreSQL runs a transaction that lost a race; 4 unless given. */
  readonly attempts?: number
  /** Where searches are read; on the store's own connection unless given (sqlite-search-thread.ts). */
  readonly searchReader?: QueryReader
}

/**
 * Posts, their histories and idempotency keys in SQLite or PostgreSQL through one Kysely
 * implementation. Both lists are keyset-paged, newest first, on a partial index: live posts on
 * (created_at, id), the trash on (deleted_at, id); their cursors are opaque tokens
 * (adapters/shared/keyset-cursor.ts), and a malformed one rejects with ValidationFailed.
 *
 * Transactions follow the adapters' one policy (transactions.ts): SQLite's writers queue for the
 * write lock; PostgreSQL locks the post it reads (`for update`) and runs the work again when it
 * loses a race. Each write is answered once its commit is on the disk.
 *
 * The change signal: site_version holds one counter, raised by every transaction that wrote and
 * by the purge, as the last update before their commit. So the number and the data it stands
 * for become visible together, to every server on the database, and reading it is one primary-key
 * lookup. Raised by the last statement, its row lock is held only until the commit: writers
 * already serialise on SQLite's write lock. On PostgreSQL a transaction's writes and the raise
 * are that one statement (SqlNewsTransaction; a create without a key is nothing else, and
 * commits by itself), whose triggers then count the post in its sitemap block: every
 * transaction of the store locks the post's row (its read), then the version, then the block,
 * in that order, so that writers queue instead of deadlocking. (The purges delete posts before
 * the raise, in statements of their own; should one meet a write on the same block, PostgreSQL
 * ends one of them as a deadlock, and it runs again.) A transaction that only read (an
 * idempotent repeat) leaves it alone.
 *
 * The change log (news_change) rides on it: a transaction that appended n revisions raises the
 * counter by n, reads back the version V it reached, and logs its changes as V-n+1 to V after
 * it, still holding the row lock. Writers take that lock one at a time and keep it to their
 * commit, so the numbers are handed out in commit order: a reader that follows the log by seq
 * never finds a change below one it has already read (SqlChangeLog). (Chosen over SQLite's
 * `PRAGMA data_version`, which misses this connection's own writes, and over LISTEN/NOTIFY, which needs a connection of its own and a fallback while it is
 * down; one mechanism serves both engines.)
 */
export class SqlNewsStore implements Port.NewsStore, NewsChangeLog {
  private readonly db: Db
  private readonly engine: Engine
  private readonly database: SqlDatabase
  private readonly onError: StorageErrorListener | undefined
  private readonly attempts: number
  /** The change signal and log, which this store's transactions write. */
  private readonly log: SqlChangeLog
  /** The list reads by rows read, and the by-id read, compiled once (see compiledOnce). */
  private readonly pageQueries = new Map<number, PageQueries>()
  private readonly findQuery
  /** Identical reads that arrive together run once; see SharedReads. */
  private readonly reads = new SharedReads()
  private readonly searchReader: QueryReader

  constructor(database: SqlDatabase, options: SqlNewsStoreOptions = {}) {
    this.db = database.db
    this.engine = database.engine
    this.database = database
    this.onError = options.onError
    this.attempts = Math.max(1, options.attempts ?? 4)
    this.searchReader =
      options.searchReader ?? readerOf(async (query) => (await this.db.executeQuery(query)).rows)
    this.findQuery = compiledOnce(selectNews(this.db, ID), [ID])
    this.log = new SqlChangeLog(this.db, this.onError)
  }

  changesSince(seq: number, limit: number): Promise<readonly NewsChange[]> {
    return this.log.changesSince(seq, limit)
  }

  changeLogBounds(): Promise<ChangeLogBounds> {
    return this.log.changeLogBounds()
  }

  version(): Promise<number> {
    return this.log.version()
  }

  list(query: Port.NewsPageQuery): Promise<Port.NewsPage> {
    const limit = paging.clampPageSize(query.limit)
    return this.reads.share(`list ${limit} ${query.cursor ?? ''}`, () =>
      guardStorage(async () => {
        const after = query.cursor === undefined ? undefined : paging.decodeCursor(query.cursor)
        // One row more than asked tells whether another page follows.
        const queries = this.pageQueriesOf(limit + 1)
        const read = after === undefined ? queries.first([]) : queries.after([after.at, after.id])
        const { rows } = await this.db.executeQuery(read)
        const page = paging.keysetPage(rows.map(toStoredNews), limit, (item) => ({
          at: item.createdAt,
          id: item._id,
        }))
        return { ...page, items: page.items.map(liveItem) }
      }, this.onError),
    )
  }

  /** The first page's read and a later page's, of `rows` rows (at most MAX_PAGE_SIZE + 1). */
  private pageQueriesOf(rows: number): PageQueries {
    let queries = this.pageQueries.get(rows)
    if (queries === undefined) {
      queries = pageReads(this.db, rows)
      this.pageQueries.set(rows, queries)
    }
    return queries
  }

  search(query: SearchQuery, page: Port.NewsPageQuery): Promise<Port.NewsPage> {
    return guardStorage(async () => {
      const limit = paging.clampPageSize(page.limit)
      const after = page.cursor === undefined ? undefined : decodeSearchCursor(page.cursor)
      if (query.terms.length === 0) return { items: [] }
      // Every tier the page may need, in one go (one trip to SQLite's search thread), best first,
      // each up to a whole page, until a page's worth and one more are read.
      const plan = tiersToRead(searchTiers(query.terms), after)
      const results = await this.searchReader.allUntil(
        plan.map(({ tier, before }) =>
          selectSearchTier(this.db, this.engine, query.terms, tier, before, limit + 1).compile(),
        ),
        limit + 1,
      )
      const rows = plan.flatMap(({ tier }, index) =>
        (results[index] ?? []).map((row) => ({
          item: liveItem(toStoredNews(row)),
          tier,
          seq: Number(row.search_seq),
        })),
      )
      return rankedPage(rows, limit)
    }, this.onError)
  }

  trash(query: Port.NewsPageQuery): Promise<Port.TrashPage> {
    return guardStorage(async () => {
      const limit = paging.clampPageSize(query.limit)
      const after = query.cursor === undefined ? undefined : paging.decodeCursor(query.cursor)
      const rows = await selectTrashPage(this.db, limit + 1, after).execute()
      const items = rows
        .map(toStoredNews)
        .flatMap((item) =>
          item.deletedAt === null ? [] : [trashedItem({ ...item, deletedAt: item.deletedAt })],
        )
      return paging.keysetPage(items, limit, (item) => ({ at: item.deletedAt, id: item._id }))
    }, this.onError)
  }

  changes(query: Port.ChangesQuery): Promise<Port.ChangePage> {
    return guardStorage(async () => {
      const limit = paging.clampPageSize(query.limit)
      const before =
        query.cursor === undefined ? undefined : paging.decodeChangeCursor(query.cursor)
      const rows = await selectChangePage(this.db, limit + 1, before, query.editor).execute()
      return paging.changePage(rows.map(toRecentChange), limit)
    }, this.onError)
  }

  find(id: string): Promise<StoredNews | undefined> {
    return this.reads.share(`find ${id}`, () =>
      guardStorage(async () => {
        // An id the domain could never issue is not looked up.
        if (!isNewsId(id)) return undefined
        const [row] = (await this.db.executeQuery(this.findQuery([id]))).rows
        return row === undefined ? undefined : toStoredNews(row)
      }, this.onError),
    )
  }

  revisions(newsId: string, query: Port.NewsPageQuery): Promise<Port.RevisionPage> {
    return guardStorage(async () => {
      const limit = paging.clampHistoryPageSize(query.limit)
      const before =
        query.cursor === undefined ? undefined : paging.decodeRevisionCursor(query.cursor)
      if (!isNewsId(newsId)) return { items: [] }
      const rows = await selectRevisionPage(this.db, newsId, limit + 1, before).execute()
      return paging.revisionPage(rows.map(toRevision), limit)
    }, this.onError)
  }

  changedSince(instant: string, filter?: Port.ChangeFilter): Promise<readonly string[]> {
    return guardStorage(async () => {
      const rows = await selectChangedSince(this.db, instant, filter).execute()
      return [...new Set(rows.map((row) => row.news_id))]
    }, this.onError)
  }

  purge({ trashedBefore, keysBefore, changesBefore }: PurgeCutoffs): Promise<Port.PurgeReport> {
    return guardStorage(
      () =>
        this.run(async (db) => {
          // Subqueries rather than lists of ids: no bound on how many posts one purge removes.
          const expired = db
            .selectFrom('news')
            .select('id')
            .where('deleted_at', 'is not', null)
            .where('deleted_at', '<', trashedBefore)
          await db.deleteFrom('news_revision').where('news_id', 'in', expired).execute()
          const posts = await db.deleteFrom('news').where('id', 'in', expired).executeTakeFirst()
          const keys = await db
            .deleteFrom('idempotency_key')
            .where('created_at', '<', keysBefore)
            .executeTakeFirst()
          await raiseVersion(db, [], await purgeChangeLog(db, changesBefore))
          return { posts: Number(posts.numDeletedRows), keys: Number(keys.numDeletedRows) }
        }),
      this.onError,
    )
  }

  transaction<T>(work: (tx: Port.NewsStoreTransaction) => Promise<T>): Promise<T> {
    return guardStorage(
      () =>
        this.database.lateTransaction(
          async (db, begin) => {
            const tx = new SqlNewsTransaction(db, this.engine, begin)
            const result = await work(tx)
            if (tx.wrote) await tx.finish()
            return result
          },
          { durable: true, attempts: this.attempts },
        ),
      this.onError,
    )
  }

  /** Runs `work` in one durable transaction; see the class comment. */
  private run<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.database.transaction(work, { durable: true, attempts: this.attempts })
  }
}
