import type { NewsField } from '@/domain/news-item.entity'
import { textField, type RuleSet } from '@/domain/rules/field-rule'

export const NEWS_LIMITS = { title: 100, body: 500, author: 30 } as const

/**
 * The spec's section 5, with the title's message corrected to say 100, and no control characters
 * (see docs/spec-deviations.md).
 */
export const NEWS_RULES: RuleSet<NewsField> = {
  title: textField('title', NEWS_LIMITS.title, 'one'),
  body: textField('body', NEWS_LIMITS.body, 'many'),
  author: textField('author', NEWS_LIMITS.author, 'one', 'Name must be less than 30 characters'),
}
