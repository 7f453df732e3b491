import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsPage } from '@/domain/ports/news-repository.port'

/**
 * The data a page is rendered with on the server, embedded in it so that the browser's screens
 * start from it instead of fetching it again: the first page of the list on '/', or the post an
 * article or edit form shows (null when there is no such post), or the first page of results on
 * '/search' for the query asked (none for a query the rules refuse: the page says why, from the
 * same rules). Both driving sides read it: the server's page route loads it, the app's screens
 * start from it.
 */
export interface PageData {
  readonly home?: NewsPage
  readonly item?: { readonly id: string; readonly item: NewsItem | null }
  readonly search?: { readonly q: string; readonly page: NewsPage }
  /**
   * The site's version, read before the rest: the page holds every change up to it, and its
   * live stream resumes from it, so a change made between the render and the stream is told.
   */
  readonly seq?: number
}

/** What a page needs loaded before it renders; unknown paths have no page. */
export type PageNeed =
  | { readonly kind: 'home' }
  | { readonly kind: 'item'; readonly id: string }
  | { readonly kind: 'search'; readonly q: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown' }
