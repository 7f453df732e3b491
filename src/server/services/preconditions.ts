import { createHash } from 'node:crypto'
import type { NewsItem } from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'

/**
 * The wire form of a post's version: a strong entity tag `"rev-N"`, N being its revision, or
 * `"rev-N-p"` while the operator protects it (so that a cached copy learns of the protection).
 * Strong, because two versions with the same tag are the same bytes of the same post. As a
 * write's If-Match, both name revision N.
 */
export function etagOf(item: Pick<NewsItem, 'revision' | 'protected'>): string {
  return item.protected === true ? `"rev-${item.revision}-p"` : `"rev-${item.revision}"`
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

const REVISION = /^rev-([1-9]\d{0,15})(?:-p)?$/

/**
 * One element of an If-Match list at `lastIndex` (RFC 9110, 5.6.1 and 8.8.3): OWS (SP and HTAB
 * only, never the other spaces String.trim drops), an optional entity-tag (its weak mark, its
 * opaque text) and OWS after it, then a comma or the end; empty elements are allowed. Linear:
 * each part can end in one place only, so a long header costs no backtracking.
 */
const LIST_ELEMENT = /[ \t]*(?:(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*)?(,|$)/y

/**
 * Reads an If-Match header (RFC 9110, 13.1.1) as the domain's condition. Absent, or `*` alone:
 * no condition, the write always applies (for a post that exists). Otherwise the `"rev-N"` tags
 * of a list of entity tags; weak tags and tags of another form match no version. A header that
 * is neither (`*` in a list, a space other than SP or HTAB, a word that is no tag) is malformed
 * and matches no version either, so the write is stale (412) rather than unconditional.
 *
 * Written by hand: `fresh` and @fastify/send split If-None-Match on commas without checking
 * the grammar (a `*` in a list, or a no-break space, passes), which a precondition must not do.
 */
export function writeConditionOf(
  header: string | readonly string[] | undefined,
): WriteCondition | undefined {
  if (header === undefined) return undefined
  const value = typeof header === 'string' ? header : header.join(',')
  if (/^[ \t]*\*[ \t]*$/.test(value)) return undefined
  const ifRevision: number[] = []
  LIST_ELEMENT.lastIndex = 0
  for (;;) {
    const element = LIST_ELEMENT.exec(value)
    if (element === null) return { ifRevision: [] }
    const [, weak, opaque, separator] = element
    const digits =
      weak === undefined && opaque !== undefined ? REVISION.exec(opaque)?.[1] : undefined
    if (digits !== undefined && Number.isSafeInteger(Number(digits)))
      ifRevision.push(Number(digits))
    if (separator === '') return { ifRevision }
  }
}
