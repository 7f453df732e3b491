import { SEARCH_FIELD } from '@/domain/rules/search-field'

/** Every URL of the app, built in one place; ids are always encoded. */
const news = (id: string) => `/news/${encodeURIComponent(id)}`

export const paths = {
  home: () => '/',
  addNews: () => '/news/new',
  article: news,
  editNews: (id: string) => `${news(id)}/edit`,
  history: (id: string) => `${news(id)}/history`,
  trash: () => '/trash',
  contact: () => '/contact',
  /**
   * The search page; with a query, its results. The query is written as the header's form
   * writes it without JavaScript (`q=caf%C3%A9+au+lait`), so both give the same address.
   */
  search: (query?: string) =>
    query === undefined ? '/search' : `/search?${new URLSearchParams({ [SEARCH_FIELD]: query })}`,
} as const

/** The route patterns React Router matches, beside the builders above. */
export const routes = {
  addNews: 'news/new',
  article: 'news/:id',
  editNews: 'news/:id/edit',
  history: 'news/:id/history',
  trash: 'trash',
  contact: 'contact',
  search: 'search',
} as const
