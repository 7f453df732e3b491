import type { Editor } from '@/domain/editor'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type {
  ChangePage,
  ChangesQuery,
  NewsPage,
  NewsPageQuery,
  RevisionPage,
  TrashPage,
} from '@/domain/ports/news-repository.port'
import type { IdempotencyRecord, PurgeCutoffs, StoredNews } from '@/domain/rules/news-history.rules'
import type { SearchQuery } from '@/domain/rules/search-query.rules'

/** A store answers with the repository's pages, so its implementations find them here too. */
export type * from '@/domain/ports/news-repository.port'

/**
 * The reads and writes of one transaction. Everything done through it commits together or
 * not at all, so that a post and the revision recording its change are never apart.
 */
export interface NewsStoreTransaction {
  /** A live or trashed post, locked against concurrent writers until the transaction ends. */
  find(id: string): Promise<StoredNews | undefined>
  /** A fresh, unused, URL-safe id. */
  newId(): string
  insert(item: StoredNews): Promise<void>
  /** Replaces the stored fields of the post with this id. */
  update(item: StoredNews): Promise<void>
  /** Adds a version to the post's history, and its change to the change log (NewsChangeLog). */
  appendRevision(newsId: string, revision: NewsRevision): Promise<void>
  /** One version of a post, or undefined. */
  revision(newsId: string, revision: number): Promise<NewsRevision | undefined>
  findKey(key: string): Promise<IdempotencyRecord | undefined>
  /** Remembers a key, replacing an expired record of the same key. */
  saveKey(record: IdempotencyRecord): Promise<void>
}

/** Which revisions count as changes, beside their time. */
export interface ChangeFilter {
  /** Made before this instant. */
  readonly until?: string
  /** Made by this editor. */
  readonly editor?: Editor
}

export interface PurgeReport {
  readonly posts: number
  readonly keys: number
}

/**
 * The server's persistence of posts, their histories and idempotency keys: SQLite, PostgreSQL,
 * or memory for tests. It keeps data; the rules of what a change records live in the domain.
 * Methods reject with a DomainError: ValidationFailed for a malformed cursor,
 * Unavailable when the store cannot answer.
 *
 * Its transactions also write the change signal and the change log (a transaction that wrote,
 * and the purge, raise the version as part of what they commit, so that no write path can
 * forget to); the server reads them through application/ports/change-log.port.ts.
 */
export interface NewsStore {
  /** Live posts, newest first (created_at, then id), keyset-paged. */
  list(query: NewsPageQuery): Promise<NewsPage>
  /**
   * Live posts holding every word of the query, best tier first and newest first within a tier
   * (rules/search-query.rules.ts), keyset-paged on (tier, publication order). The index behind
   * it changes in each write's own transaction: an edit is found by its new words at once, a
   * trashed post no more, a restored one again.
   */
  search(query: SearchQuery, page: NewsPageQuery): Promise<NewsPage>
  /** Trashed posts, newest deletion first (deleted_at, then id), keyset-paged. */
  trash(query: NewsPageQuery): Promise<TrashPage>
  /**
   * The change log joined with the revisions it names, newest first, keyset-paged on seq; only
   * `query.editor`'s when given.
   */
  changes(query: ChangesQuery): Promise<ChangePage>
  /** A live or trashed post, without a lock. */
  find(id: string): Promise<StoredNews | undefined>
  /**
   * A post's versions, newest first (revision number), keyset-paged on the primary key; an
   * empty page when no post ever had this id (or it was purged), or none is older than the cursor.
   */
  revisions(newsId: string, query: NewsPageQuery): Promise<RevisionPage>
  /**
   * The ids of posts with a revision made at or after `instant` (and before `filter.until`, by
   * `filter.editor`, when given), in no set order.
   */
  changedSince(instant: string, filter?: ChangeFilter): Promise<readonly string[]>
  /**
   * Deletes posts trashed before one cutoff, with their histories, keys made before another, and
   * logged changes made before the third (moving purgedThrough past them).
   */
  purge(cutoffs: PurgeCutoffs): Promise<PurgeReport>
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it rejects.
   * Engines may run it again after a serialisation conflict, so `work` must only use `tx`.
   */
  transaction<T>(work: (tx: NewsStoreTransaction) => Promise<T>): Promise<T>
}
