import type { SearchTier } from '@/domain/rules/search-query.rules'
import {
  BASE64URL,
  decoderOf,
  fromBase64Url,
  MAX_CURSOR_LENGTH,
  toBase64Url,
} from '@/adapters/shared/keyset-cursor'

/**
 * Where a page of search results ends: the next page resumes strictly after this post, in the
 * order tier (best first), then publication order (`seq`, newest first). A store numbers its
 * posts in the order they were published and never renumbers them, so the position stays
 * valid while posts are edited, trashed and restored.
 */
export interface SearchPosition {
  readonly tier: SearchTier
  readonly seq: number
}

/** A post of a search page, with what ranks it. */
export interface RankedItem<Item> extends SearchPosition {
  readonly item: Item
}

const PREFIX = 'search '
// A tier, a space and a publication number: no sign, no leading zero, a safe integer.
const POSITION = /^([012]) ([1-9]\d{0,15})$/

/** An opaque, URL-safe token: base64url of "search <tier> <seq>". */
export function encodeSearchCursor({ tier, seq }: SearchPosition): string {
  return toBase64Url(`${PREFIX}${tier} ${seq}`)
}

/** The position a token names, or undefined when it is not one a store made. */
export function parseSearchCursor(token: string): SearchPosition | undefined {
  if (token.length === 0 || token.length > MAX_CURSOR_LENGTH || !BASE64URL.test(token)) {
    return undefined
  }
  const text = fromBase64Url(token) ?? ''
  if (!text.startsWith(PREFIX)) return undefined
  const match = POSITION.exec(text.slice(PREFIX.length))
  if (match === null) return undefined
  const seq = Number(match[2])
  if (!Number.isSafeInteger(seq)) return undefined
  const position: SearchPosition = { tier: Number(match[1]) as SearchTier, seq }
  // One token per position, as for the lists.
  return encodeSearchCursor(position) === token ? position : undefined
}

/** As parseSearchCursor, but a malformed token is ValidationFailed on `cursor`. */
export const decodeSearchCursor = decoderOf(parseSearchCursor)

/**
 * Reads the posts of one tier, newest first, published before `before` (all of them when it is
 * undefined), at most `count`.
 */
export type TierReader<Item> = (
  tier: SearchTier,
  before: number | undefined,
  count: number,
) => Promise<readonly RankedItem<Item>[]>

/**
 * The tiers a page after `after` reads, best first, each with the publication number its posts
 * come before (undefined: all of them): none better than the cursor's, and the cursor's own
 * only past it.
 */
export function tiersToRead(
  tiers: readonly SearchTier[],
  after: SearchPosition | undefined,
): { readonly tier: SearchTier; readonly before: number | undefined }[] {
  return tiers
    .filter((tier) => after === undefined || tier <= after.tier)
    .map((tier) => ({
      tier,
      before: after !== undefined && tier === after.tier ? after.seq : undefined,
    }))
}

/**
 * A page of search results, read tier by tier from the cursor's position: each tier is a range
 * of one ordered read that can stop after `limit + 1` posts (the extra one tells that another
 * page follows), so no page costs more than the first, however deep.
 */
export async function tieredPage<Item>(
  tiers: readonly SearchTier[],
  after: SearchPosition | undefined,
  limit: number,
  read: TierReader<Item>,
): Promise<{ readonly items: Item[]; readonly next?: string }> {
  const rows: RankedItem<Item>[] = []
  for (const { tier, before } of tiersToRead(tiers, after)) {
    rows.push(...(await read(tier, before, limit + 1 - rows.length)))
    if (rows.length > limit) break
  }
  return rankedPage(rows, limit)
}

/**
 * The page of `limit` results that ranked `rows` (best first, at least `limit + 1` when another
 * page follows) begin with, and the cursor of the next page.
 */
export function rankedPage<Item>(
  rows: readonly RankedItem<Item>[],
  limit: number,
): { readonly items: Item[]; readonly next?: string } {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  const items = page.map((row) => row.item)
  return rows.length > limit && last !== undefined
    ? { items, next: encodeSearchCursor(last) }
    : { items }
}
