import type { NewsPage, NewsPageQuery, NewsRepository } from '@/domain/ports/news-repository.port'
import { attempt, type Result } from '@/domain/result'
import { pageQuery } from '@/application/page-query'

export class ListNews {
  constructor(private readonly news: NewsRepository) {}

  async execute(query: NewsPageQuery = {}): Promise<Result<NewsPage>> {
    return attempt(() => this.news.list(pageQuery(query)))
  }
}
