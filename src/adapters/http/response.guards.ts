import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { RecentChange } from '@/domain/news-change.entity'
import { RecentChangeSchema } from '@/contract/recent-change.wire-schemas'
import {
  NewsItemSchema,
  NewsRevisionSchema,
  TrashedNewsItemSchema,
} from '@/contract/news.wire-schemas'
import { decode, isRecord } from '@/adapters/http/wire-schema.checker'

/*
 * The API's answers, read through the wire schemas the server answers by: each reader gives a
 * copy with only the contract's fields, or undefined for anything else.
 */

export const newsItemOf = (value: unknown): NewsItem | undefined => decode(NewsItemSchema, value)

export const trashedNewsItemOf = (value: unknown): TrashedNewsItem | undefined =>
  decode(TrashedNewsItemSchema, value)

export const newsRevisionOf = (value: unknown): NewsRevision | undefined =>
  decode(NewsRevisionSchema, value)

export const recentChangeOf = (value: unknown): RecentChange | undefined =>
  decode(RecentChangeSchema, value)

/**
 * The field messages of a problem+json body (`errors` maps field → message), keeping only
 * string messages; undefined when there are none.
 */
export function fieldMessagesOf(problem: unknown): Record<string, string> | undefined {
  if (!isRecord(problem) || !isRecord(problem.errors)) return undefined
  // fromEntries defines own properties, so a "__proto__" key cannot touch the prototype.
  const fields = Object.fromEntries(
    Object.entries(problem.errors).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  )
  return Object.keys(fields).length > 0 ? fields : undefined
}

/** The stored post a 412 problem carries as `current`, if it is a valid one. */
export function currentItemOf(problem: unknown): NewsItem | undefined {
  return isRecord(problem) ? newsItemOf(problem.current) : undefined
}

/** The post in the trash that a 404 problem names (`trashed`), if it names one. */
export function trashedItemOf(problem: unknown): TrashedNewsItem | undefined {
  return isRecord(problem) ? trashedNewsItemOf(problem.trashed) : undefined
}
