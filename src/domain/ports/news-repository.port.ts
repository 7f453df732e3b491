import type { Editor } from '@/domain/editor'
import type { RecentChange } from '@/domain/news-change.entity'
import type { NewsChanges, NewsDraft, NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import type { SearchQuery } from '@/domain/rules/search-query.rules'

export interface NewsPageQuery {
  /** How many items at most; adapters bound it. */
  readonly limit?: number
  /** The `next` token of the previous page. */
  readonly cursor?: string
}

export interface Page<Item> {
  readonly items: readonly Item[]
  /** An opaque token for the following page, absent on the last page. */
  readonly next?: string
}

/** The recent changes' query: a page, of one editor's changes when `editor` is given. */
export interface ChangesQuery extends NewsPageQuery {
  readonly editor?: Editor
}

/** Changes across the site, newest first (by seq). */
export type ChangePage = Page<RecentChange>

/** Live posts, newest first. */
export type NewsPage = Page<NewsItem>

/** Trashed posts, newest deletion first. */
export type TrashPage = Page<TrashedNewsItem>

/** A post's versions, newest first. */
export type RevisionPage = Page<NewsRevision>

export const DEFAULT_PAGE_SIZE = 24
export const MAX_PAGE_SIZE = 100
/** A history page is text only, so it holds more than a list page. */
export const DEFAULT_HISTORY_PAGE_SIZE = 50
export const MAX_HISTORY_PAGE_SIZE = 100

export interface CreateOptions {
  /** A client's key for this one submission: a repeat with the same key creates nothing. */
  readonly idempotencyKey?: string
  /** Who creates it; see the `editor` of NewsRepository's writes. */
  readonly editor?: Editor
}

/**
 * Where posts are kept, as the use cases see it: in the browser, the API; on the server, the
 * journal over the database (application/journaled-news.repository.ts). Every write records a
 * revision. Methods reject with a DomainError: NotFound for an unknown or trashed id,
 * Stale when a condition names an old revision, Conflict, ValidationFailed for a bad cursor,
 * Unavailable when the store cannot answer.
 *
 * Each write's `editor` is recorded on the revision it makes (domain/editor.ts). The server's
 * repository records UNKNOWN_EDITOR when none is given; the browser's leaves it to the server,
 * which names the client by its address.
 */
export interface NewsRepository {
  list(query: NewsPageQuery): Promise<NewsPage>
  /**
   * A page of the live posts that hold every word of the query in their title, body or author,
   * ranked by the domain's rule (rules/search-query.rules.ts: posts whose title holds every word
   * first, then some, then none; newest first within each), paged like the list;
   * ValidationFailed for a cursor that is not one of a search's pages.
   */
  search(query: SearchQuery, page: NewsPageQuery): Promise<NewsPage>
  /** A live post; NotFound for a trashed one. */
  get(id: string): Promise<NewsItem>
  create(draft: NewsDraft, options?: CreateOptions): Promise<NewsItem>
  update(
    id: string,
    changes: NewsChanges,
    condition?: WriteCondition,
    editor?: Editor,
  ): Promise<NewsItem>
  /** Moves a live post to the trash. */
  remove(id: string, condition?: WriteCondition, editor?: Editor): Promise<void>
  /** Brings a trashed post back under its id; Conflict(NotInTrash) for a live one. */
  restore(id: string, editor?: Editor): Promise<NewsItem>
  /**
   * A page of the versions of a live or trashed post, newest first; the pages together hold
   * every version. NotFound if it never existed (or was purged), whatever the cursor.
   */
  revisions(id: string, query: NewsPageQuery): Promise<RevisionPage>
  /**
   * Makes an old version of a live post current, as a new revision; with a `condition`, only
   * while the post is at one of its revisions (Stale otherwise, nothing changed).
   */
  restoreRevision(
    id: string,
    revision: number,
    editor?: Editor,
    condition?: WriteCondition,
  ): Promise<NewsItem>
  trash(query: NewsPageQuery): Promise<TrashPage>
  /**
   * A page of the change log: every change still logged (CHANGE_LOG_RETENTION_MS), newest
   * first, each with its editor and the post's title at that revision; ValidationFailed for a
   * cursor that is not one of its pages.
   */
  changes(query: ChangesQuery): Promise<ChangePage>
}
