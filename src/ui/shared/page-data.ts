import type { PageData, PageNeed } from '@/application/page-data'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsPage } from '@/domain/ports/news-repository.port'

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
  readonly home: () => NewsPage | undefined
  readonly item: (id: string) => NewsItem | null | undefined
  /** The first page of results, when the server rendered the search for this very query. */
  readonly search: (q: string) => NewsPage | undefined
  /** A screen has mounted with the page data: from now on there is none. */
  readonly release: () => void
}

export function pageDataClaims(data: PageData = {}): PageDataClaims {
  let held = data
  return {
    home: () => held.home,
    item: (id) => (held.item?.id === id ? held.item.item : undefined),
    search: (q) => (held.search?.q === q ? held.search.page : undefined),
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
