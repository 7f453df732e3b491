import type { NewsItem } from '@/domain/news-item.entity'
import { SITE } from '@/domain/site'

export { SITE }

/** Each screen's name in the tab, in link previews and in history; the article's is its title. */
export const PAGE_TITLES = {
  home: 'Latest news',
  article: 'Article',
  addNews: 'Add news',
  editNews: 'Edit news',
  history: (item?: NewsItem) => (item === undefined ? 'History' : `History of ${item.title}`),
  trash: 'Recently deleted',
  contact: 'Contact us',
  /** The query as the domain reads it; '' when there is none, or it is refused. */
  search: (query: string) => (query === '' ? 'Search' : `Search: ${query}`),
  notAvailable: 'Page not available',
} as const

/** A screen's name as the tab shows it: 'Latest news | NewsWire'. */
export function pageTitle(screen: string): string {
  return screen ? `${screen} | ${SITE.name}` : SITE.name
}
