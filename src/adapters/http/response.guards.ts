import { isNewsId } from '@/domain/news-id'
import type { NewsItem } from '@/domain/news-item.entity'

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isNewsItem(value: unknown): value is NewsItem {
  return (
    isRecord(value) &&
    typeof value._id === 'string' &&
    isNewsId(value._id) &&
    typeof value.title === 'string' &&
    typeof value.body === 'string' &&
    typeof value.author === 'string' &&
    typeof value.createdAt === 'string' &&
    !Number.isNaN(Date.parse(value.createdAt))
  )
}

/** A copy with only the contract's fields, so nothing else the server sends travels inward. */
export function pickNewsItem({ _id, title, body, author, createdAt }: NewsItem): NewsItem {
  return { _id, title, body, author, createdAt }
}

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
