import type { NewsPageQuery, NewsRepository, TrashPage } from '@/domain/ports/news-repository.port'
import { attempt, type Result } from '@/domain/result'
import { pageQuery } from '@/application/page-query'

/** The trash: deleted posts that can still be restored, newest deletion first. */
export class ListTrash {
  constructor(private readonly news: NewsRepository) {}

  async execute(query: NewsPageQuery = {}): Promise<Result<TrashPage>> {
    return attempt(() => this.news.trash(pageQuery(query)))
  }
}
