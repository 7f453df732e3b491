import { matchRoutes } from 'react-router-dom'
import type { PageData, PageNeed } from '@/application/page-data'
import { SEARCH_FIELD } from '@/domain/rules/search-query.rules'
import { routes } from '@/ui/shared/paths'

/*
 * What the server needs to know of the app's pages before it renders one: which paths are
 * pages, what each needs loaded, and how its data is embedded. Only the server's entry
 * (server-render.tsx) imports this, so none of it is in the browser's bundle.
 */

/** The route table's page paths, as React Router matches them, without the screens. */
const PAGE_ROUTES = [
  { path: '/' },
  { path: `/${routes.addNews}` },
  { path: `/${routes.article}`, item: true },
  { path: `/${routes.editNews}`, item: true },
  { path: `/${routes.history}` },
  { path: `/${routes.trash}` },
  { path: `/${routes.contact}` },
  { path: `/${routes.search}`, search: true },
] as const

/** The app's page paths, for the server's routes (React Router and Fastify write them alike). */
export const PAGE_PATHS: readonly string[] = PAGE_ROUTES.map((route) => route.path)

/**
 * Which data the page at `pathname` is rendered with, or that no page lives there; `search` is
 * the URL's query string ('?q=café'), which only the search page reads.
 */
export function pageNeed(pathname: string, search = ''): PageNeed {
  const [match] = matchRoutes([...PAGE_ROUTES], pathname) ?? []
  if (match === undefined) return { kind: 'unknown' }
  if (match.route.path === '/') return { kind: 'home' }
  if ('search' in match.route) {
    return { kind: 'search', q: new URLSearchParams(search).get(SEARCH_FIELD) ?? '' }
  }
  const id = match.params.id
  return 'item' in match.route && id !== undefined ? { kind: 'item', id } : { kind: 'none' }
}

/** Whether the page is the site's 'not available' page: an unknown path or a missing post. */
export function isMissing(need: PageNeed, data: PageData): boolean {
  return need.kind === 'unknown' || (need.kind === 'item' && data.item?.item === null)
}

/**
 * The page data as a JSON block that no post can break out of: the parser of a `<script>`
 * element stops at `</script` and at `<!--`, so every `<` is written `\u003c` (and `>`, `&` and
 * the two line separators likewise, which JSON.parse reads back the same).
 */
export function embedPageData(data: PageData): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
