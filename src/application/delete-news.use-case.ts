import type { Editor } from '@/domain/editor'
import { notFound } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { attempt, fail, type Result } from '@/domain/result'
import type { WriteCondition } from '@/domain/rules/news-history.rules'

export class DeleteNews {
  constructor(private readonly news: NewsRepository) {}

  /**
   * Moves the post to the trash; with a condition, only if it is still the version named. The
   * editor is recorded on the revision.
   */
  async execute(id: string, condition?: WriteCondition, editor?: Editor): Promise<Result<void>> {
    if (!isNewsId(id)) return fail(notFound())
    return attempt(() => this.news.remove(id, condition, editor))
  }
}
