import { isNewsId } from '@/domain/news-id'
import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import { REVISION_ACTIONS, type NewsRevision } from '@/domain/news-revision.entity'

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isInstant(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value))
}

/** Revision numbers start at 1. */
function isRevisionNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1
}

export function isNewsItem(value: unknown): value is NewsItem {
  return (
    isRecord(value) &&
    typeof value._id === 'string' &&
    isNewsId(value._id) &&
    typeof value.title === 'string' &&
    typeof value.body === 'string' &&
    typeof value.author === 'string' &&
    isInstant(value.createdAt) &&
    isInstant(value.updatedAt) &&
    isRevisionNumber(value.revision)
  )
}

export function isTrashedNewsItem(value: unknown): value is TrashedNewsItem {
  return isRecord(value) && isNewsItem(value) && isInstant(value.deletedAt)
}

export function isNewsRevision(value: unknown): value is NewsRevision {
  return (
    isRecord(value) &&
    isRevisionNumber(value.revision) &&
    typeof value.title === 'string' &&
    typeof value.body === 'string' &&
    typeof value.author === 'string' &&
    REVISION_ACTIONS.some((action) => action === value.action) &&
    isInstant(value.at) &&
    (value.restoredFrom === undefined || isRevisionNumber(value.restoredFrom))
  )
}

/** A copy with only the contract's fields, so nothing else the server sends travels inward. */
export function pickNewsItem({
  _id,
  title,
  body,
  author,
  createdAt,
  updatedAt,
  revision,
}: NewsItem): NewsItem {
  return { _id, title, body, author, createdAt, updatedAt, revision }
}

export function pickTrashedNewsItem(item: TrashedNewsItem): TrashedNewsItem {
  return { ...pickNewsItem(item), deletedAt: item.deletedAt }
}

export function pickNewsRevision({
  revision,
  title,
  body,
  author,
  action,
  at,
  restoredFrom,
}: NewsRevision): NewsRevision {
  const picked = { revision, title, body, author, action, at }
  return restoredFrom === undefined ? picked : { ...picked, restoredFrom }
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

/** The stored post a 412 problem carries as `current`, if it is a valid one. */
export function currentItemOf(problem: unknown): NewsItem | undefined {
  return isRecord(problem) && isNewsItem(problem.current)
    ? pickNewsItem(problem.current)
    : undefined
}
