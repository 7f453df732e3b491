import { validationFailed } from '@/domain/domain-error'
import type { NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type { CreateOptions, NewsRepository } from '@/domain/ports/news-repository.port'
import { attempt, fail, type Result } from '@/domain/result'
import { checkFields, hasErrors } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { normaliseDraft } from '@/domain/rules/normalise'

export class CreateNews {
  constructor(private readonly news: NewsRepository) {}

  /**
   * With an idempotency key, a repeat of the same submission answers the first post; the
   * options' editor is recorded on the revision.
   */
  async execute(draft: NewsDraft, options: CreateOptions = {}): Promise<Result<NewsItem>> {
    const errors = checkFields(NEWS_RULES, draft)
    if (hasErrors(errors)) return fail(validationFailed(errors))
    return attempt(() => this.news.create(normaliseDraft(draft), options))
  }
}
