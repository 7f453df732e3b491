import {
  DEFAULT_HISTORY_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  MAX_HISTORY_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type NewsPageQuery,
} from '@/domain/ports/news-repository.port'

/** A page query with its limit bounded to 1…MAX_PAGE_SIZE (DEFAULT_PAGE_SIZE when absent). */
export function pageQuery(query: NewsPageQuery): NewsPageQuery {
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? DEFAULT_PAGE_SIZE), 1), MAX_PAGE_SIZE)
  return { ...query, limit }
}

/** A history page query: 1…MAX_HISTORY_PAGE_SIZE (DEFAULT_HISTORY_PAGE_SIZE when absent). */
export function historyPageQuery(query: NewsPageQuery): NewsPageQuery {
  const given = query.limit ?? DEFAULT_HISTORY_PAGE_SIZE
  const limit = Math.min(Math.max(Math.trunc(given), 1), MAX_HISTORY_PAGE_SIZE)
  return { ...query, limit }
}
