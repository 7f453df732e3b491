import { NEWS_FIELDS, type NewsChanges } from '@/domain/news-item.entity'

/**
 * Keeps only the fields a client may set, without the white space around them;
 * line breaks inside the body stay.
 */
export function normaliseDraft<T extends NewsChanges>(draft: T): T {
  const out: Record<string, string> = {}
  for (const field of NEWS_FIELDS) {
    const value = draft[field]
    if (typeof value === 'string') out[field] = value.trim()
  }
  return out as T
}
