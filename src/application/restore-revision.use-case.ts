import type { Editor } from '@/domain/editor'
import { notFound } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import { attempt, fail, type Result } from '@/domain/result'

export interface RestoreRevisionInput {
  readonly id: string
  readonly revision: number
  /** Who restores it: recorded on the new revision. */
  readonly editor?: Editor
  /** Only while the post is at one of these revisions (an If-Match). */
  readonly condition?: WriteCondition
}

/** Makes an old version of a post current again, as a new revision: history only grows. */
export class RestoreRevision {
  constructor(private readonly news: NewsRepository) {}

  async execute({
    id,
    revision,
    editor,
    condition,
  }: RestoreRevisionInput): Promise<Result<NewsItem>> {
    if (!isNewsId(id) || !Number.isSafeInteger(revision) || revision < 1) return fail(notFound())
    return attempt(() => this.news.restoreRevision(id, revision, editor, condition))
  }
}
