import type { Editor } from '@/domain/editor'
import { notFound, validationFailed } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'
import { NEWS_FIELDS, type NewsChanges, type NewsItem } from '@/domain/news-item.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { attempt, fail, type Result } from '@/domain/result'
import { checkFields, hasErrors } from '@/domain/rules/field-rule'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { normaliseDraft } from '@/domain/rules/normalise'

export interface EditNewsInput {
  readonly id: string
  readonly changes: NewsChanges
  /** Only replace the version the editor started from; without it, the edit always applies. */
  readonly condition?: WriteCondition
  /** Who edits: recorded on the revision (domain/editor.ts). */
  readonly editor?: Editor
}

export class EditNews {
  constructor(private readonly news: NewsRepository) {}

  /** Changes any of title, body and author; only the fields given are checked and written. */
  async execute({ id, changes, condition, editor }: EditNewsInput): Promise<Result<NewsItem>> {
    const given = NEWS_FIELDS.filter((field) => changes[field] !== undefined)
    const errors = checkFields(NEWS_RULES, changes, given)
    if (hasErrors(errors)) return fail(validationFailed(errors))
    if (!isNewsId(id)) return fail(notFound())
    return attempt(() => this.news.update(id, normaliseDraft(changes), condition, editor))
  }
}
