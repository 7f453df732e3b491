import type { PageData, PageNeed } from '@/application/page-data'
import type { UseCases } from '@/application/use-cases'
import type { DomainError } from '@/domain/domain-error'
import type { Result } from '@/domain/result'

/** A page's `?cursor=` that names no page of its list: the page answers with its first page. */
export const NO_SUCH_PAGE = Symbol('no such page')

/**
 * Loads what the page needs through the use cases, the page its cursor names for a paged list.
 * A post that is not there is null (the page answers 404), with the post when it is in the trash
 * (410); a history of no post is null (404); a cursor that is not one of the list's pages is
 * NO_SUCH_PAGE. A database that fails leaves the data out, so that the browser loads it and
 * shows its own failure state and Retry.
 */
export async function loadPageData(
  useCases: UseCases,
  need: PageNeed,
): Promise<PageData | typeof NO_SUCH_PAGE> {
  const at = 'cursor' in need && need.cursor !== undefined ? { cursor: need.cursor } : {}
  switch (need.kind) {
    case 'home':
      return paged(await useCases.listNews.execute(at), (home) => ({ home, ...at }))
    case 'trash':
      return paged(await useCases.listTrash.execute(at), (trash) => ({ trash, ...at }))
    case 'changes': {
      const { editor } = need
      const found = await useCases.listChanges.execute({ editor, ...at })
      const by = editor === undefined ? {} : { editor }
      // A name no editor can have: the page says so.
      if (!found.ok && found.error.code === 'ValidationFailed' && 'editor' in found.error.fields) {
        return { changes: { ...by, page: null } }
      }
      return paged(found, (page) => ({ changes: { ...by, page }, ...at }))
    }
    case 'search': {
      const found = await useCases.searchNews.execute({ q: need.q, ...at })
      // A refused query has no data: the page says why, from the domain's rules.
      return paged(found, (page) => ({ search: { q: need.q, page }, ...at }))
    }
    case 'history': {
      const history = await useCases.listRevisions.execute(need.id, at)
      if (!history.ok && history.error.code === 'NotFound') {
        return { history: { id: need.id, page: null } }
      }
      return paged(history, (page) => ({ history: { id: need.id, page }, ...at }))
    }
    case 'item': {
      const found = await useCases.getNewsItem.execute(need.id)
      if (found.ok) return { item: { id: need.id, item: found.value } }
      if (found.error.code !== 'NotFound') return {}
      const { trashed } = found.error
      return { item: { id: need.id, item: null, ...(trashed === undefined ? {} : { trashed }) } }
    }
    default:
      return {}
  }
}

/** The page's data from a page of its list, NO_SUCH_PAGE for a bad cursor, none on failure. */
function paged<Page>(
  result: Result<Page>,
  data: (page: Page) => PageData,
): PageData | typeof NO_SUCH_PAGE {
  if (result.ok) return data(result.value)
  return isBadCursor(result.error) ? NO_SUCH_PAGE : {}
}

function isBadCursor(error: DomainError): boolean {
  return error.code === 'ValidationFailed' && 'cursor' in error.fields
}
