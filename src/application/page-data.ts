import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type {
  ChangePage,
  NewsPage,
  RevisionPage,
  TrashPage,
} from '@/domain/ports/news-repository.port'

/**
 * The data a page is rendered with on the server, embedded in it so that the browser's screens
 * start from it instead of fetching it again: a page of the list on '/', the post an article or
 * edit form shows (null when there is no such post; `trashed` when it is in the trash), a page
 * of results on '/search' for the query asked (none for a query the rules refuse: the page says
 * why, from the same rules), a page of the trash, or of a post's history. Both driving sides
 * read it: the server's page route loads it, the app's screens start from it.
 */
export interface PageData {
  readonly home?: NewsPage
  readonly item?: {
    readonly id: string
    readonly item: NewsItem | null
    /** The post in the trash, when that is where it is (the page answers 410). */
    readonly trashed?: TrashedNewsItem
  }
  readonly search?: { readonly q: string; readonly page: NewsPage }
  readonly trash?: TrashPage
  /**
   * A page of the recent changes, of one editor's when `editor` is given; null when no editor
   * can have that name.
   */
  readonly changes?: { readonly editor?: string; readonly page: ChangePage | null }
  /** A page of a post's history; null when no post ever had this id (or it was purged). */
  readonly history?: { readonly id: string; readonly page: RevisionPage | null }
  /**
   * The `?cursor=` of the paged list's page rendered (its next-page link's): absent for the
   * first page. A screen starts from the data only for the page its address names.
   */
  readonly cursor?: string
  /**
   * The site's version, read before the rest: the page holds every change up to it, and its
   * live stream resumes from it, so a change made between the render and the stream is told.
   */
  readonly seq?: number
}

/**
 * What a page needs loaded before it renders; unknown paths have no page. A paged list's
 * `cursor` is its address's `?cursor=`, absent for the first page.
 */
export type PageNeed =
  | { readonly kind: 'home'; readonly cursor?: string }
  | { readonly kind: 'item'; readonly id: string }
  | { readonly kind: 'search'; readonly q: string; readonly cursor?: string }
  | { readonly kind: 'trash'; readonly cursor?: string }
  | { readonly kind: 'history'; readonly id: string; readonly cursor?: string }
  | { readonly kind: 'changes'; readonly editor?: string; readonly cursor?: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown' }
