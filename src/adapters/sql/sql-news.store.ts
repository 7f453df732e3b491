import { randomBytes } from 'node:crypto'
import { sql, type Compilable, type CompiledQuery, type Kysely } from 'kysely'
import {
  changeKindOf,
  NEWS_CHANGE_KINDS,
  type NewsChange,
  type NewsChangeKind,
} from '@/domain/news-change.entity'
import { isNewsId } from '@/domain/news-id'
import type { NewsItem } from '@/domain/news-item.entity'
import {
  REVISION_ACTIONS,
  type NewsRevision,
  type RevisionAction,
} from '@/domain/news-revision.entity'
import type {
  NewsPage,
  NewsPageQuery,
  RevisionPage,
  TrashPage,
} from '@/domain/ports/news-repository.port'
import type {
  ChangeLogBounds,
  NewsStore,
  NewsStoreTransaction,
  PurgeReport,
} from '@/domain/ports/news-store.port'
import {
  isRevisionNumber,
  IDEMPOTENCY_KEY_TTL_MS,
  liveItem,
  trashedItem,
  type IdempotencyRecord,
  type PurgeCutoffs,
  type StoredNews,
} from '@/domain/rules/news-history.rules'
import { searchTiers, type SearchQuery, type SearchTier } from '@/domain/rules/search-query.rules'
import type { Engine, SqlDatabase } from '@/adapters/sql/database'
import {
  postgresTierMatch,
  reindexSqlite,
  searchInsertValues,
  searchUpdateValues,
  sqliteTierMatch,
  SQLITE_SEARCH_TABLE,
} from '@/adapters/sql/news-search.sql'
import { toIsoInstant, type NewsWireSchema } from '@/adapters/sql/newswire.schema'
import type { QueryReader } from '@/adapters/sql/sqlite-search-thread'
import { immediateTransaction } from '@/adapters/sql/sqlite-wal-flush'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'
import {
  clampHistoryPageSize,
  clampPageSize,
  decodeCursor,
  decodeRevisionCursor,
  keysetPage,
  revisionPage,
  type KeysetPosition,
} from '@/adapters/shared/keyset-cursor'
import { decodeSearchCursor, tieredPage, type RankedItem } from '@/adapters/shared/search-cursor'

export interface SqlNewsStoreOptions {
  /** Told about each database failure before it is reported as Unavailable. */
  readonly onError?: StorageErrorListener
  /** How many times PostgreSQL runs a transaction that lost a race; 4 unless given. */
  readonly attempts?: number
  /** Where searches are read; on the store's own connection unless given (sqlite-search-thread.ts). */
  readonly searchReader?: QueryReader
}

const NEWS_COLUMNS = [
  'id',
  'title',
  'body',
  'author',
  'created_at',
  'updated_at',
  'revision',
  'deleted_at',
] as const

const REVISION_COLUMNS = [
  'revision',
  'title',
  'body',
  'author',
  'action',
  'at',
  'restored_from',
] as const

// PostgreSQL's codes for a transaction that lost a race and may simply run again:
// serialization_failure, deadlock_detected, and unique_violation (two creates with one
// idempotency key, or two writers of the same revision number).
const RETRYABLE_CODES = new Set(['40001', '40P01', '23505'])

type Db = Kysely<NewsWireSchema>

/** The one row of site_version (its check constraint admits no other). */
const SITE_VERSION_ROW = 1

/**
 * Posts, their histories and idempotency keys in SQLite or PostgreSQL through one Kysely
 * implementation. Both lists are keyset-paged, newest first, on a partial index: live posts on
 * (created_at, id), the trash on (deleted_at, id); their cursors are opaque tokens
 * (adapters/shared/keyset-cursor.ts), and a malformed one rejects with ValidationFailed.
 *
 * Transactions: SQLite takes the write lock at BEGIN IMMEDIATE, so writers, in this process or
 * another sharing the file, queue instead of failing when a read lock cannot be upgraded.
 * PostgreSQL locks the post it reads (`for update`) and runs the work again when it loses a race.
 *
 * The change signal: site_version holds one counter, raised by every transaction that wrote and
 * by the purge, as the last update before their commit. So the number and the data it stands
 * for become visible together, to every server on the database, and reading it is one primary-key
 * lookup. Raised last, its row lock is the last one a writer takes and is held only until the
 * commit: writers already serialise on SQLite's write lock, and on PostgreSQL they queue briefly
 * at the end instead of deadlocking. A transaction that only read (an idempotent repeat) leaves
 * it alone.
 *
 * The change log (news_change) rides on it: a transaction that appended n revisions raises the
 * counter by n, reads back the version V it reached, and logs its changes as V-n+1 to V after
 * it, still holding the row lock. Writers take that lock one at a time and keep it to their
 * commit, so the numbers are handed out in commit order: a reader that follows the log by seq
 * never finds a change below one it has already read (NewsChangeLog). (Chosen over SQLite's `PRAGMA data_version`, which misses this connection's own
 * writes, and over LISTEN/NOTIFY, which needs a connection of its own and a fallback while it is
 * down; one mechanism serves both engines.)
 */
export class SqlNewsStore implements NewsStore {
  private readonly db: Db
  private readonly engine: Engine
  private readonly onError: StorageErrorListener | undefined
  private readonly attempts: number
  /** Compiled once: it runs before every cached read, where building it would cost as much. */
  private readonly versionQuery
  /** The list and by-id reads, compiled once too (see compiledOnce). */
  private readonly firstPageQuery
  private readonly pageAfterQuery
  private readonly findQuery
  /** Identical reads that arrive together run once; see SharedReads. */
  private readonly reads = new SharedReads()
  /** Resolves once the commits made so far are on the disk (SqlDatabase.flushLog). */
  private readonly flushLog: () => Promise<void>
  private readonly searchReader: QueryReader

  constructor(database: SqlDatabase, options: SqlNewsStoreOptions = {}) {
    this.db = database.db
    this.engine = database.engine
    this.flushLog = () => database.flushLog()
    this.onError = options.onError
    this.attempts = Math.max(1, options.attempts ?? 4)
    this.searchReader = options.searchReader ?? {
      all: async (query) => (await this.db.executeQuery(query)).rows,
    }
    this.firstPageQuery = compiledOnce(selectNewsPage(this.db, LIMIT), [LIMIT])
    this.pageAfterQuery = compiledOnce(selectNewsPage(this.db, LIMIT, { at: AT, id: ID }), [
      AT,
      ID,
      LIMIT,
    ])
    this.findQuery = compiledOnce(selectNews(this.db, ID), [ID])
    this.versionQuery = this.db
      .selectFrom('site_version')
      .select('version')
      .where('id', '=', SITE_VERSION_ROW)
      .compile()
  }

  changesSince(seq: number, limit: number): Promise<readonly NewsChange[]> {
    return guardStorage(async () => {
      if (limit < 1) return []
      const rows = await this.db
        .selectFrom('news_change')
        .select(['seq', 'news_id', 'kind', 'revision', 'at'])
        .where('seq', '>', seq)
        .orderBy('seq')
        .limit(limit)
        .execute()
      return rows.map(toChange)
    }, this.onError)
  }

  changeLogBounds(): Promise<ChangeLogBounds> {
    return guardStorage(async () => {
      const row = await this.db
        .selectFrom('site_version')
        .select(['version', 'changes_purged_through'])
        .where('id', '=', SITE_VERSION_ROW)
        .executeTakeFirst()
      if (row === undefined) throw new Error('site_version has no row')
      return { version: Number(row.version), purgedThrough: Number(row.changes_purged_through) }
    }, this.onError)
  }

  list(query: NewsPageQuery): Promise<NewsPage> {
    const limit = clampPageSize(query.limit)
    return this.reads.share(`list ${limit} ${query.cursor ?? ''}`, () =>
      guardStorage(async () => {
        const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
        // One row more than asked tells whether another page follows.
        const read =
          after === undefined
            ? this.firstPageQuery([limit + 1])
            : this.pageAfterQuery([after.at, after.id, limit + 1])
        const { rows } = await this.db.executeQuery(read)
        const page = keysetPage(rows.map(toStoredNews), limit, (item) => ({
          at: item.createdAt,
          id: item._id,
        }))
        return { ...page, items: page.items.map(liveItem) }
      }, this.onError),
    )
  }

  search(query: SearchQuery, page: NewsPageQuery): Promise<NewsPage> {
    return guardStorage(async () => {
      const limit = clampPageSize(page.limit)
      const after = page.cursor === undefined ? undefined : decodeSearchCursor(page.cursor)
      if (query.terms.length === 0) return { items: [] }
      return tieredPage(
        searchTiers(query.terms),
        after,
        limit,
        async (tier, before, count): Promise<RankedItem<NewsItem>[]> => {
          const select = selectSearchTier(this.db, this.engine, query.terms, tier, before, count)
          const rows = await this.searchReader.all(select.compile())
          return rows.map((row) => ({
            item: liveItem(toStoredNews(row)),
            tier,
            seq: Number(row.search_seq),
          }))
        },
      )
    }, this.onError)
  }

  trash(query: NewsPageQuery): Promise<TrashPage> {
    return guardStorage(async () => {
      const limit = clampPageSize(query.limit)
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
      const rows = await selectTrashPage(this.db, limit + 1, after).execute()
      const items = rows
        .map(toStoredNews)
        .flatMap((item) =>
          item.deletedAt === null ? [] : [trashedItem({ ...item, deletedAt: item.deletedAt })],
        )
      return keysetPage(items, limit, (item) => ({ at: item.deletedAt, id: item._id }))
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

  version(): Promise<number> {
    return guardStorage(async () => {
      const [row] = (await this.db.executeQuery(this.versionQuery)).rows
      if (row === undefined) throw new Error('site_version has no row')
      // PostgreSQL's bigint arrives as text.
      return Number(row.version)
    }, this.onError)
  }

  revisions(newsId: string, query: NewsPageQuery): Promise<RevisionPage> {
    return guardStorage(async () => {
      const limit = clampHistoryPageSize(query.limit)
      const before = query.cursor === undefined ? undefined : decodeRevisionCursor(query.cursor)
      if (!isNewsId(newsId)) return { items: [] }
      const rows = await selectRevisionPage(this.db, newsId, limit + 1, before).execute()
      return revisionPage(rows.map(toRevision), limit)
    }, this.onError)
  }

  changedSince(instant: string): Promise<readonly string[]> {
    return guardStorage(async () => {
      const rows = await selectChangedSince(this.db, instant).execute()
      return [...new Set(rows.map((row) => row.news_id))]
    }, this.onError)
  }

  purge({ trashedBefore, keysBefore, changesBefore }: PurgeCutoffs): Promise<PurgeReport> {
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
          const posts = await db
            .deleteFrom('news')
            .where('deleted_at', 'is not', null)
            .where('deleted_at', '<', trashedBefore)
            .executeTakeFirst()
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

  transaction<T>(work: (tx: NewsStoreTransaction) => Promise<T>): Promise<T> {
    return guardStorage(
      () =>
        this.run(async (db) => {
          const tx = new SqlNewsTransaction(db, this.engine)
          const result = await work(tx)
          if (tx.wrote) await raiseVersion(db, tx.appended)
          return result
        }),
      this.onError,
    )
  }

  /** Runs `work` in one transaction of the engine; see the class comment. */
  private run<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.engine === 'sqlite' ? this.runImmediate(work) : this.runWithRetries(work)
  }

  private async runImmediate<T>(work: (db: Db) => Promise<T>): Promise<T> {
    // The commit does not wait for the disk on the event loop; the answer waits for the log's
    // flush in the thread pool (see WalFlush), so other requests run while the disk works.
    const result = await immediateTransaction(this.db, work)
    // Also after a transaction that only read: it may answer a write another request made,
    // whose flush has not ended yet.
    await this.flushLog()
    return result
  }

  private async runWithRetries<T>(work: (db: Db) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.db.transaction().execute((trx) => work(trx))
      } catch (error) {
        if (attempt >= this.attempts || !isRetryable(error)) throw error
        // A short, random pause, so that the racers do not collide again in step.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
      }
    }
  }
}

/**
 * Identical reads (the same page, the same post) that arrive together share one query. Under
 * load, the requests one turn of the event loop delivers ask alike: after each write, every
 * request for the first page misses the first-page cache at once, and each ran the same query
 * (about five queries per write in `npm run bench:load`).
 *
 * A read joins only a query that has not started yet, so it still sees every write answered
 * before it began, as a query of its own would: the coherence promise holds on every engine. A
 * query starts one microtask after the first read asked for it, which lets the reads resolved
 * in the same batch (they run in step through the same calls) join it; the entry is gone before
 * the query's SQL is sent. Nothing is kept once the query answers.
 */
export class SharedReads {
  private readonly waiting = new Map<string, Promise<unknown>>()

  share<T>(key: string, read: () => Promise<T>): Promise<T> {
    const waiting = this.waiting.get(key) as Promise<T> | undefined
    if (waiting !== undefined) return waiting
    const shared = Promise.resolve().then(() => {
      // From here on a new read of `key` starts a query of its own.
      this.waiting.delete(key)
      return read()
    })
    this.waiting.set(key, shared)
    return shared
  }
}

/** A revision a transaction appended, as the change log records it. */
interface LoggedChange {
  readonly newsId: string
  readonly kind: NewsChangeKind
  readonly revision: number
  readonly at: string
}

class SqlNewsTransaction implements NewsStoreTransaction {
  /** Whether the work changed anything, so that the change signal must move. */
  wrote = false
  /** The changes to log at the commit, in the order their revisions were appended. */
  readonly appended: LoggedChange[] = []

  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
  ) {}

  find(id: string): Promise<StoredNews | undefined> {
    // SQLite has no row locks; its transactions already hold the database's write lock.
    return findNews(this.db, id, this.engine === 'postgres')
  }

  newId(): string {
    return newNewsId()
  }

  async insert(item: StoredNews): Promise<void> {
    this.wrote = true
    const [row] = await this.db
      .insertInto('news')
      .values({ ...toNewsRow(item), ...searchInsertValues(this.engine, item) })
      .returning('search_seq')
      .execute()
    await this.reindex(row?.search_seq, item, { fresh: true })
  }

  async update(item: StoredNews): Promise<void> {
    this.wrote = true
    const { id: _id, created_at: _createdAt, ...row } = toNewsRow(item)
    const updated = await this.db
      .updateTable('news')
      .set({ ...row, ...searchUpdateValues(this.engine, item) })
      .where('id', '=', item._id)
      .returning('search_seq')
      .execute()
    if (updated.length !== 1) throw new Error(`no post ${item._id} to update`)
    await this.reindex(updated[0]?.search_seq, item)
  }

  /**
   * SQLite's search index is a table of its own, brought in line here, in the write's
   * transaction; PostgreSQL's columns were set by the write itself.
   */
  private async reindex(
    seq: number | string | null | undefined,
    item: StoredNews,
    { fresh = false } = {},
  ): Promise<void> {
    if (this.engine !== 'sqlite' || seq === null || seq === undefined) return
    await reindexSqlite(this.db, Number(seq), item, fresh)
  }

  async appendRevision(newsId: string, revision: NewsRevision): Promise<void> {
    this.wrote = true
    this.appended.push({
      newsId,
      kind: changeKindOf(revision.action, revision.restoredFrom),
      revision: revision.revision,
      at: revision.at,
    })
    await this.db
      .insertInto('news_revision')
      .values({
        news_id: newsId,
        revision: revision.revision,
        title: revision.title,
        body: revision.body,
        author: revision.author,
        action: revision.action,
        at: revision.at,
        restored_from: revision.restoredFrom ?? null,
      })
      .execute()
  }

  async revision(newsId: string, revision: number): Promise<NewsRevision | undefined> {
    if (!isNewsId(newsId) || !isRevisionNumber(revision)) return undefined
    const row = await this.db
      .selectFrom('news_revision')
      .select(REVISION_COLUMNS)
      .where('news_id', '=', newsId)
      .where('revision', '=', revision)
      .executeTakeFirst()
    return row === undefined ? undefined : toRevision(row)
  }

  async findKey(key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.db
      .selectFrom('idempotency_key')
      .select(['key', 'fingerprint', 'news_id', 'created_at'])
      .where('key', '=', key)
      .executeTakeFirst()
    return row === undefined
      ? undefined
      : {
          key: row.key,
          fingerprint: row.fingerprint,
          newsId: row.news_id,
          createdAt: toIsoInstant(row.created_at),
        }
  }

  async saveKey(record: IdempotencyRecord): Promise<void> {
    this.wrote = true
    // An expired record of the key makes way; a live one stays, and the insert then fails on
    // the primary key. That is how two simultaneous creates with one key end: PostgreSQL runs
    // the loser again, and it finds the winner's key.
    await this.db
      .deleteFrom('idempotency_key')
      .where('key', '=', record.key)
      .where('created_at', '<=', expiredBy(record.createdAt))
      .execute()
    await this.db
      .insertInto('idempotency_key')
      .values({
        key: record.key,
        fingerprint: record.fingerprint,
        news_id: record.newsId,
        created_at: record.createdAt,
      })
      .execute()
  }
}

/**
 * Moves the change signal on, inside the caller's transaction, as its last update: by one per
 * change appended (by one when none was, for a write of a key alone or the purge), then logs
 * the changes under the versions they brought; see SqlNewsStore. `purgedThrough`, from the
 * purge, moves the log's floor up with the same update.
 */
async function raiseVersion(
  db: Db,
  changes: readonly LoggedChange[],
  purgedThrough?: number,
): Promise<void> {
  const by = Math.max(1, changes.length)
  const floor = sql.ref('changes_purged_through')
  const raised = await db
    .updateTable('site_version')
    .set({
      version: sql<number>`version + ${by}`,
      ...(purgedThrough === undefined
        ? {}
        : {
            changes_purged_through: sql<number>`case when ${floor} < ${purgedThrough} then ${purgedThrough} else ${floor} end`,
          }),
    })
    .where('id', '=', SITE_VERSION_ROW)
    .returning('version')
    .executeTakeFirst()
  if (raised === undefined) throw new Error('site_version has no row')
  const first = Number(raised.version) - changes.length + 1
  const rows = changes.map((change, index) => ({
    seq: first + index,
    news_id: change.newsId,
    kind: change.kind,
    revision: change.revision,
    at: change.at,
  }))
  // In batches, within what either engine binds in one statement.
  for (let start = 0; start < rows.length; start += CHANGE_LOG_BATCH) {
    await db
      .insertInto('news_change')
      .values(rows.slice(start, start + CHANGE_LOG_BATCH))
      .execute()
  }
}

/** Changes logged per statement: five values each, far below the engines' bound of bindings. */
const CHANGE_LOG_BATCH = 1000

/**
 * Deletes the logged changes made before `before`, and every change numbered below them, so that
 * what stays is all the log holds above one seq (a clock that went back on some server cannot
 * leave a gap). Answers that seq, or undefined when nothing was old enough. Its scan of the
 * log's `at` has no index: it runs once per purge over a day of changes.
 */
async function purgeChangeLog(db: Db, before: string): Promise<number | undefined> {
  const oldest = await db
    .selectFrom('news_change')
    .select((eb) => eb.fn.max('seq').as('through'))
    .where('at', '<', before)
    .executeTakeFirst()
  if (oldest?.through === null || oldest?.through === undefined) return undefined
  const through = Number(oldest.through)
  await db.deleteFrom('news_change').where('seq', '<=', through).execute()
  return through
}

/** The newest creation instant at which a key is expired at `instant`. */
function expiredBy(instant: string): string {
  return new Date(Date.parse(instant) - IDEMPOTENCY_KEY_TTL_MS).toISOString()
}

async function findNews(db: Db, id: string, lock: boolean): Promise<StoredNews | undefined> {
  // An id the domain could never issue is not looked up.
  if (!isNewsId(id)) return undefined
  const query = selectNews(db, id)
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst()
  return row === undefined ? undefined : toStoredNews(row)
}

function selectNews(db: Db, id: string) {
  return db.selectFrom('news').select(NEWS_COLUMNS).where('id', '=', id)
}

// Stand-ins for the values of a query compiled once: no real cursor, id or limit equals them.
const AT = '\u0000at'
const ID = '\u0000id'
const LIMIT = -0x7fff_fffe

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
 */
export function selectNewsPage(db: Db, limit: number, after?: KeysetPosition) {
  const page = db
    .selectFrom('news')
    .select(NEWS_COLUMNS)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
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
export function selectChangedSince(db: Db, instant: string) {
  return db.selectFrom('news_revision').select('news_id').where('at', '>=', instant)
}

interface ChangeRow {
  seq: number | string
  news_id: string
  kind: string
  revision: number
  at: Date | string
}

function toChange(row: ChangeRow): NewsChange {
  const kind = NEWS_CHANGE_KINDS.find((known) => known === row.kind)
  // The table's check constraint admits nothing else.
  if (kind === undefined) throw new Error(`unknown change kind ${row.kind}`)
  return {
    seq: Number(row.seq),
    id: row.news_id,
    kind,
    revision: Number(row.revision),
    at: instantOf(row.at),
  }
}

function toAction(value: string): RevisionAction {
  const action = REVISION_ACTIONS.find((known) => known === value)
  // The table's check constraint admits nothing else.
  if (action === undefined) throw new Error(`unknown revision action ${value}`)
  return action
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && RETRYABLE_CODES.has(code)
}

/** 16 random bytes in base64url: 22 URL-safe characters. */
function newNewsId(): string {
  return randomBytes(16).toString('base64url')
}

interface NewsRow {
  id: string
  title: string
  body: string
  author: string
  created_at: Date | string
  updated_at: Date | string
  revision: number
  deleted_at: Date | string | null
}

function toStoredNews(row: NewsRow): StoredNews {
  return {
    _id: row.id,
    title: row.title,
    body: row.body,
    author: row.author,
    createdAt: instantOf(row.created_at),
    updatedAt: instantOf(row.updated_at),
    revision: Number(row.revision),
    deletedAt: row.deleted_at === null ? null : instantOf(row.deleted_at),
  }
}

/** The form toISOString writes, in which SQLite keeps every instant the store saved. */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/**
 * toIsoInstant, without parsing and printing again an instant already in its form: on a page of
 * posts read from SQLite, that round trip through Date cost a tenth of the read.
 */
function instantOf(value: Date | string): string {
  return typeof value === 'string' && ISO_INSTANT.test(value) ? value : toIsoInstant(value)
}

function toNewsRow(item: StoredNews) {
  return {
    id: item._id,
    title: item.title,
    body: item.body,
    author: item.author,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    revision: item.revision,
    deleted_at: item.deletedAt,
  }
}

interface RevisionRow {
  revision: number
  title: string
  body: string
  author: string
  action: string
  at: Date | string
  restored_from: number | null
}

function toRevision(row: RevisionRow): NewsRevision {
  return {
    revision: Number(row.revision),
    title: row.title,
    body: row.body,
    author: row.author,
    action: toAction(row.action),
    at: toIsoInstant(row.at),
    ...(row.restored_from === null ? {} : { restoredFrom: Number(row.restored_from) }),
  }
}
