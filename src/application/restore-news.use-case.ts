import type { Editor } from '@/domain/editor'
import { notFound } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { attempt, fail, type Result } from '@/domain/result'

/** Brings a post back from the trash, under the same id, with its history. */
export class RestoreNews {
  constructor(private readonly news: NewsRepository) {}

  /** The editor is recorded on the revision the restore makes. */
  async execute(id: string, editor?: Editor): Promise<Result<NewsItem>> {
    if (!isNewsId(id)) return fail(notFound())
    return attempt(() => this.news.restore(id, editor))
  }
}
