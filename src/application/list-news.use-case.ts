import { toDomainError } from '@/domain/domain-error'
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type NewsPage,
  type NewsPageQuery,
  type NewsRepository,
} from '@/domain/ports/news-repository.port'
import { fail, ok, type Result } from '@/domain/result'

export class ListNews {
  constructor(private readonly news: NewsRepository) {}

  async execute(query: NewsPageQuery = {}): Promise<Result<NewsPage>> {
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? DEFAULT_PAGE_SIZE), 1), MAX_PAGE_SIZE)
    try {
      return ok(await this.news.list({ ...query, limit }))
    } catch (thrown) {
      return fail(toDomainError(thrown))
    }
  }
}
