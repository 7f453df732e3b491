import { NEWS_FIELDS, type NewsChanges } from '@/domain/news-item.entity'

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Replaces each unpaired surrogate (which a JSON `\ud800` escape can make, but no UTF-8 can
 * hold) with U+FFFD, as both engines' drivers would on the way in: what a write answers is then
 * what every store keeps (see docs/spec-deviations.md).
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD')
}

/**
 * Keeps only the fields a client may set, well-formed and without the white space around them;
 * line breaks inside the body stay.
 */
export function normaliseDraft<T extends NewsChanges>(draft: T): T {
  const out: Record<string, string> = {}
  for (const field of NEWS_FIELDS) {
    const value = draft[field]
    if (typeof value === 'string') out[field] = wellFormed(value).trim()
  }
  return out as T
}
