import type { PageData, PageNeed } from '@/application/page-data'
import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsPage, RevisionPage, TrashPage } from '@/domain/ports/news-repository.port'

export type { PageData, PageNeed }

/**
 * Page data once: the first screen starts from what the server rendered it with, and screens
 * fetch as usual ever after (a later visit to '/' must show what is new). A screen reads its
 * part while it renders, as often as React renders it, and lets the data go once it has mounted
 * (usePageData): React may throw a render away (a hydration the visitor's typing interrupts, a
 * render that waits for code) and the render it tries again must find the same data, or it would
 * not match the server's HTML.
 */
export interface PageDataClaims {
  /** The page of the list at `cursor` (its first page when undefined), if the server rendered it. */
  readonly home: (cursor?: string) => NewsPage | undefined
  readonly item: (id: string) => NewsItem | null | undefined
  /** The post with this id, when the server found it in the trash. */
  readonly trashed: (id: string) => TrashedNewsItem | undefined
  /** The page of results, when the server rendered the search for this very query and page. */
  readonly search: (q: string, cursor?: string) => NewsPage | undefined
  readonly trash: (cursor?: string) => TrashPage | undefined
  /** The page of a post's history; null when the server found no such post. */
  readonly history: (id: string, cursor?: string) => RevisionPage | null | undefined
  /**
   * The page data as it is held, for a screen that picks its own part out in its own code (the
   * recent changes): what only a lazily loaded screen reads need not load with the first visit.
   */
  readonly held: () => PageData
  /** A screen has mounted with the page data: from now on there is none. */
  readonly release: () => void
}

export function pageDataClaims(data: PageData = {}): PageDataClaims {
  let held = data
  // Each paged list's data is for the page its address names, and no other.
  const at = (cursor: string | undefined) => held.cursor === cursor
  return {
    home: (cursor) => (at(cursor) ? held.home : undefined),
    item: (id) => (held.item?.id === id ? held.item.item : undefined),
    trashed: (id) => (held.item?.id === id ? held.item.trashed : undefined),
    search: (q, cursor) => (held.search?.q === q && at(cursor) ? held.search.page : undefined),
    trash: (cursor) => (at(cursor) ? held.trash : undefined),
    history: (id, cursor) =>
      held.history?.id === id && at(cursor) ? held.history.page : undefined,
    held: () => held,
    release: () => {
      held = {}
    },
  }
}

/** The id of the element that holds the embedded page data. */
export const PAGE_DATA_ID = 'newswire-page-data'

/** The page data the server embedded, or undefined when there is none or it cannot be read. */
export function readPageData(document: Document): PageData | undefined {
  const text = document.getElementById(PAGE_DATA_ID)?.textContent
  if (text === undefined || text === null) return undefined
  try {
    return JSON.parse(text) as PageData
  } catch {
    return undefined
  }
}
