import { notFound, toDomainError } from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { fail, ok, type Result } from '@/domain/result'
import { isNewsId } from '@/domain/news-id'

export class GetNewsItem {
  constructor(private readonly news: NewsRepository) {}

  async execute(id: string): Promise<Result<NewsItem>> {
    if (!isNewsId(id)) return fail(notFound())
    try {
      return ok(await this.news.get(id))
    } catch (thrown) {
      return fail(toDomainError(thrown))
    }
  }
}
