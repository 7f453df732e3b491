import type { NewsPage, NewsPageQuery, NewsRepository } from '@/domain/ports/news-repository.port'
import { attempt, ok, type Result } from '@/domain/result'
import { parseSearchQuery } from '@/domain/rules/search-query.rules'
import { pageQuery } from '@/application/page-query'

/** A search as a driving side asks for it: the text typed, and which page. */
export interface SearchNewsInput extends NewsPageQuery {
  readonly q: string
}

/**
 * Full-text search over the live posts. The domain judges the query first (ValidationFailed on
 * `q` for an empty, over-long or control-character query, or too many words), so no store, and
 * no request from the browser, ever sees one it refuses; a query without a single word (only
 * punctuation, say) matches nothing and asks no store either.
 */
export class SearchNews {
  constructor(private readonly news: NewsRepository) {}

  async execute({ q, ...page }: SearchNewsInput): Promise<Result<NewsPage>> {
    const parsed = parseSearchQuery(q)
    if (!parsed.ok) return parsed
    if (parsed.value.terms.length === 0) return ok({ items: [] })
    return attempt(() => this.news.search(parsed.value, pageQuery(page)))
  }
}
