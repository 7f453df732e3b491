import { SEARCH_FIELD } from '@/domain/rules/search-field'

/** Every URL of the app, built in one place; ids are always encoded. */
const news = (id: string) => `/news/${encodeURIComponent(id)}`

/** The query field of the recent changes that names one editor. */
export const EDITOR_FIELD = 'editor'

/** The query field that names a page of a paged list (its first page has none). */
export const CURSOR_FIELD = 'cursor'

/** `path` at the page of its list that `cursor` names, or its first page. */
const paged = (path: string, cursor?: string, query: Record<string, string> = {}) => {
  const fields = new URLSearchParams(query)
  if (cursor !== undefined) fields.set(CURSOR_FIELD, cursor)
  const search = fields.toString()
  return search === '' ? path : `${path}?${search}`
}

export const paths = {
  home: (cursor?: string) => paged('/', cursor),
  addNews: () => '/news/new',
  article: news,
  editNews: (id: string) => `${news(id)}/edit`,
  history: (id: string, cursor?: string) => paged(`${news(id)}/history`, cursor),
  trash: (cursor?: string) => paged('/trash', cursor),
  /** The recent changes; with an editor, only theirs. */
  changes: (editor?: string, cursor?: string) =>
    paged('/changes', cursor, editor === undefined ? {} : { [EDITOR_FIELD]: editor }),
  contact: () => '/contact',
  /**
   * The search page; with a query, its results. The query is written as the header's form
   * writes it without JavaScript (`q=caf%C3%A9+au+lait`), so both give the same address.
   */
  search: (query?: string, cursor?: string) =>
    paged('/search', cursor, query === undefined ? {} : { [SEARCH_FIELD]: query }),
} as const

/** The route patterns React Router matches, beside the builders above. */
export const routes = {
  addNews: 'news/new',
  article: 'news/:id',
  editNews: 'news/:id/edit',
  history: 'news/:id/history',
  trash: 'trash',
  changes: 'changes',
  contact: 'contact',
  search: 'search',
} as const
