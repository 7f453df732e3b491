import type { NewsItem } from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'

/**
 * The wire form of a post's version: a strong entity tag `"rev-N"`, N being its revision.
 * Strong, because two versions with the same number are the same bytes of the same post.
 */
export function etagOf(item: Pick<NewsItem, 'revision'>): string {
  return `"rev-${item.revision}"`
}

const REVISION_TAG = /^"rev-([1-9]\d{0,15})"$/

/**
 * Reads an If-Match header (RFC 9110, 13.1.1) as the domain's condition. Absent or `*`: no
 * condition, the write always applies (for a post that exists). Otherwise the listed
 * `"rev-N"` tags; anything else in the list, weak tags included, matches no version, so a
 * header of nothing but garbage makes the write stale (412) rather than unconditional.
 */
export function writeConditionOf(
  header: string | readonly string[] | undefined,
): WriteCondition | undefined {
  if (header === undefined) return undefined
  const value = typeof header === 'string' ? header : header.join(',')
  if (value.trim() === '*') return undefined
  const ifRevision: number[] = []
  for (const part of value.split(',')) {
    const digits = REVISION_TAG.exec(part.trim())?.[1]
    const revision = digits === undefined ? Number.NaN : Number(digits)
    if (Number.isSafeInteger(revision)) ifRevision.push(revision)
  }
  return { ifRevision }
}
