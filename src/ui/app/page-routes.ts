import { LRUCache } from 'lru-cache'
import { matchRoutes } from 'react-router-dom'
import type { PageData, PageNeed } from '@/application/page-data'
import { SEARCH_FIELD } from '@/domain/rules/search-query.rules'
import { CURSOR_FIELD, EDITOR_FIELD, routes } from '@/ui/shared/paths'

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
  { path: `/${routes.history}`, history: true },
  { path: `/${routes.trash}`, trash: true },
  { path: `/${routes.changes}`, changes: true },
  { path: `/${routes.contact}` },
  { path: `/${routes.search}`, search: true },
] as const

/** The app's page paths, for the server's routes (React Router and Fastify write them alike). */
export const PAGE_PATHS: readonly string[] = PAGE_ROUTES.map((route) => route.path)

/**
 * Which data the page at `pathname` is rendered with, or that no page lives there; `search` is
 * the URL's query string ('?q=café&cursor=…'): the search reads its query, and each paged list
 * (the home page, a search, the trash, a history) the page its cursor names.
 */
export function pageNeed(pathname: string, search = ''): PageNeed {
  const match = pageRouteAt(pathname)
  if (match === undefined) return { kind: 'unknown' }
  const query = new URLSearchParams(search)
  const cursor = query.get(CURSOR_FIELD) || undefined
  const paged = cursor === undefined ? {} : { cursor }
  if (match.route.path === '/') return { kind: 'home', ...paged }
  if ('search' in match.route) {
    return { kind: 'search', q: query.get(SEARCH_FIELD) ?? '', ...paged }
  }
  if ('trash' in match.route) return { kind: 'trash', ...paged }
  if ('changes' in match.route) {
    const editor = query.get(EDITOR_FIELD)
    return { kind: 'changes', ...(editor === null ? {} : { editor }), ...paged }
  }
  const id = match.params.id
  if (id === undefined) return { kind: 'none' }
  if ('history' in match.route) return { kind: 'history', id, ...paged }
  return 'item' in match.route ? { kind: 'item', id } : { kind: 'none' }
}

type PageRouteMatch = NonNullable<
  ReturnType<typeof matchRoutes<(typeof PAGE_ROUTES)[number]>>
>[number]

/**
 * The page routes' matches, by path: React Router flattens and ranks the whole table on every
 * match, which took a tenth of the server's time to answer a kept page. Bounded, and only for
 * paths of a sensible length, since any client chooses them.
 */
const matches = new LRUCache<string, PageRouteMatch | false>({ max: 1_000 })
const KEPT_PATH_LENGTH = 256

function pageRouteAt(pathname: string): PageRouteMatch | undefined {
  const kept = matches.get(pathname)
  if (kept !== undefined) return kept || undefined
  const [match] = matchRoutes([...PAGE_ROUTES], pathname) ?? []
  if (pathname.length <= KEPT_PATH_LENGTH) matches.set(pathname, match ?? false)
  return match
}

/** Whether the post the page is about is in the trash (the page says where it went). */
export function isInTrash(need: PageNeed, data: PageData): boolean {
  return need.kind === 'item' && data.item?.trashed !== undefined
}

/**
 * Whether the page is the site's 'not available' page: an unknown path, or a post (or a post's
 * history) that is not there. A post in the trash is not missing: it is gone, and says where.
 */
export function isMissing(need: PageNeed, data: PageData): boolean {
  if (need.kind === 'unknown') return true
  if (need.kind === 'history') return data.history?.page === null
  if (need.kind === 'changes') return data.changes?.page === null
  return need.kind === 'item' && data.item?.item === null && !isInTrash(need, data)
}

/** The page's HTTP status: 404 for a missing page, 410 for a post in the trash, else 200. */
export function pageStatus(need: PageNeed, data: PageData): number {
  if (isInTrash(need, data)) return 410
  return isMissing(need, data) ? 404 : 200
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
