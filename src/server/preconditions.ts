import { createHash } from 'node:crypto'
import type { NewsItem } from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'

/**
 * The wire form of a post's version: a strong entity tag `"rev-N"`, N being its revision.
 * Strong, because two versions with the same number are the same bytes of the same post.
 */
export function etagOf(item: Pick<NewsItem, 'revision'>): string {
  return `"rev-${item.revision}"`
}

/**
 * The entity tag of a list page: a hash of its serialised body and its `Link`, so that it comes
 * from the data alone and every server on the database gives the same page the same tag. Weak,
 * because one tag names the page in every content coding (identity, gzip, br) it is sent in.
 */
export function pageEtagOf(body: string, link: string | undefined): string {
  const hash = createHash('sha1')
    .update(body)
    .update(`\n${link ?? ''}`)
    .digest('base64url')
  return `W/"${hash}"`
}

// An entity tag, weak or strong; the list's commas and spaces lie between the matches.
const ENTITY_TAG = /(?:W\/)?("[^"]*")/g

/**
 * Whether an If-None-Match header (RFC 9110, 13.1.2) names `etag`, by weak comparison: `W/`
 * is ignored on both sides, so `"rev-3"` and `W/"rev-3"` match. `*` matches any current
 * representation. Absent or naming none of the tags: false, and the full answer goes out.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag
  for (const [, tag] of header.matchAll(ENTITY_TAG)) if (tag === opaque) return true
  return false
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
