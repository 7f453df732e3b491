import { notFound } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { attempt, fail, type Result } from '@/domain/result'

export class GetNewsItem {
  constructor(private readonly news: NewsRepository) {}

  async execute(id: string): Promise<Result<NewsItem>> {
    if (!isNewsId(id)) return fail(notFound())
    return attempt(() => this.news.get(id))
  }
}
