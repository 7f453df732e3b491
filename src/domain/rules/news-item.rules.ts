import type { NewsField } from '@/domain/news-item.entity'
import { mustBeAtMost, noControlCharacters, type RuleSet } from '@/domain/rules/field-rule'

export const NEWS_LIMITS = { title: 100, body: 500, author: 30 } as const

/**
 * The spec's section 5, with the title's message corrected to say 100, and no control characters
 * (see docs/spec-deviations.md).
 */
export const NEWS_RULES: RuleSet<NewsField> = {
  title: {
    required: 'Sorry, title is required',
    maxLength: { limit: NEWS_LIMITS.title, message: mustBeAtMost(NEWS_LIMITS.title) },
    characters: { lines: 'one', message: noControlCharacters('title') },
  },
  body: {
    required: 'Sorry, body is required',
    maxLength: { limit: NEWS_LIMITS.body, message: mustBeAtMost(NEWS_LIMITS.body) },
    characters: { lines: 'many', message: noControlCharacters('body') },
  },
  author: {
    required: 'Sorry, author is required',
    maxLength: { limit: NEWS_LIMITS.author, message: 'Name must be less than 30 characters' },
    characters: { lines: 'one', message: noControlCharacters('author') },
  },
}
