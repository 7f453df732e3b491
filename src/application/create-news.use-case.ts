import { toDomainError, validationFailed } from '@/domain/domain-error'
import type { NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { fail, ok, type Result } from '@/domain/result'
import { checkFields, hasErrors } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { normaliseDraft } from '@/domain/rules/normalise'

export class CreateNews {
  constructor(private readonly news: NewsRepository) {}

  async execute(draft: NewsDraft): Promise<Result<NewsItem>> {
    const errors = checkFields(NEWS_RULES, draft)
    if (hasErrors(errors)) return fail(validationFailed(errors))
    try {
      return ok(await this.news.create(normaliseDraft(draft)))
    } catch (thrown) {
      return fail(toDomainError(thrown))
    }
  }
}
