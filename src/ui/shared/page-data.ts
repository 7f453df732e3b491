import type { PageData, PageNeed } from '@/application/page-data'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsPage } from '@/domain/ports/news-repository.port'

export type { PageData, PageNeed }

/**
 * Page data once: a screen takes what the server rendered it with when it first opens, and
 * fetches as usual ever after (a later visit to '/' must show what is new).
 */
export interface PageDataClaims {
  readonly home: () => NewsPage | undefined
  readonly item: (id: string) => NewsItem | null | undefined
  /** The first page of results, when the server rendered the search for this very query. */
  readonly search: (q: string) => NewsPage | undefined
}

export function pageDataClaims(data: PageData = {}): PageDataClaims {
  let { home, item, search } = data
  return {
    home: () => {
      const claimed = home
      home = undefined
      return claimed
    },
    item: (id) => {
      if (item?.id !== id) return undefined
      const claimed = item.item
      item = undefined
      return claimed
    },
    search: (q) => {
      if (search?.q !== q) return undefined
      const claimed = search.page
      search = undefined
      return claimed
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
