import { conflict, forbidden, notFound, stale } from '@/domain/domain-error'
import type { NewsChanges, NewsDraft, NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import { NEWS_FIELDS } from '@/domain/news-item.entity'
import { OPERATOR, type Editor } from '@/domain/editor'
import type { NewsRevision, RevisionAction } from '@/domain/news-revision.entity'

/**
 * The rules of a post's history: how each change numbers and records a revision, when a
 * write is stale, what a restore brings back, and how long the trash and idempotency keys last.
 * Every store follows them through the same code (application/journaled-news.repository.ts).
 */

/** How long a trashed post stays restorable unless TRASH_DAYS says otherwise. */
export const DEFAULT_TRASH_DAYS = 30
/** How long a create's Idempotency-Key is remembered. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255
/** The highest revision number every engine can hold (PostgreSQL's `integer`). */
export const MAX_REVISION = 2_147_483_647

/** A revision number a post could have: 1 to MAX_REVISION; anything else names no version. */
export function isRevisionNumber(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= MAX_REVISION
}

/** A post as a store keeps it: live while `deletedAt` is null, in the trash otherwise. */
export interface StoredNews extends NewsItem {
  readonly deletedAt: string | null
}

/** A change to a post: the post as it becomes, and the revision that records it. */
export interface Revised {
  readonly item: StoredNews
  readonly revision: NewsRevision
}

/** Which versions a write may replace; the write is stale unless the stored one is among them. */
export interface WriteCondition {
  readonly ifRevision: readonly number[]
}

/** When a change is made, and by whom. */
export interface ChangeStamp {
  readonly now: Date
  readonly editor: Editor
}

function record(
  item: StoredNews,
  action: RevisionAction,
  { at, editor }: { readonly at: string; readonly editor: Editor },
  restoredFrom?: number,
): Revised {
  const revision: NewsRevision = {
    revision: item.revision,
    title: item.title,
    body: item.body,
    author: item.author,
    action,
    at,
    editor,
    ...(restoredFrom === undefined ? {} : { restoredFrom }),
  }
  return { item, revision }
}

/** A new post: revision 1, live. */
export function created(id: string, draft: NewsDraft, { now, editor }: ChangeStamp): Revised {
  const at = now.toISOString()
  const item: StoredNews = {
    _id: id,
    title: draft.title,
    body: draft.body,
    author: draft.author,
    createdAt: at,
    updatedAt: at,
    revision: 1,
    deletedAt: null,
  }
  return record(item, 'create', { at, editor })
}

/** The next version of a stored post, with `action` recorded against it. */
function next(
  stored: StoredNews,
  values: NewsDraft,
  action: RevisionAction,
  { now, editor }: ChangeStamp,
  deletedAt: string | null,
  restoredFrom?: number,
): Revised {
  const at = now.toISOString()
  const item: StoredNews = {
    ...stored,
    title: values.title,
    body: values.body,
    author: values.author,
    updatedAt: at,
    revision: stored.revision + 1,
    deletedAt,
  }
  return record(item, action, { at, editor }, restoredFrom)
}

/**
 * An edit of a live post. Undefined when it changes nothing: an edit that leaves every field
 * as it was records no revision.
 */
export function edited(
  stored: StoredNews,
  changes: NewsChanges,
  stamp: ChangeStamp,
): Revised | undefined {
  const values = { ...draftOf(stored), ...definedChanges(changes) }
  if (sameDraft(values, stored)) return undefined
  return next(stored, values, 'edit', stamp, null)
}

/** A live post moved to the trash; its fields are kept as they were. */
export function trashed(stored: StoredNews, stamp: ChangeStamp): Revised {
  return next(stored, draftOf(stored), 'delete', stamp, stamp.now.toISOString())
}

/** A trashed post brought back, as it was when it was deleted. */
export function untrashed(stored: StoredNews, stamp: ChangeStamp): Revised {
  return next(stored, draftOf(stored), 'restore', stamp, null)
}

/** An old version of a live post made current again, as a new revision. */
export function reverted(stored: StoredNews, target: NewsRevision, stamp: ChangeStamp): Revised {
  return next(stored, draftOf(target), 'restore', stamp, null, target.revision)
}

/**
 * Checks that a write may go ahead on `stored`: the post must be live (NotFound otherwise) and,
 * when a condition is given, its revision one the writer named (Stale otherwise, carrying the
 * current post). Throws the DomainError.
 */
export function assertWritable(
  stored: StoredNews | undefined,
  condition?: WriteCondition,
): asserts stored is StoredNews {
  if (stored === undefined || stored.deletedAt !== null) {
    throw notFound()
  }
  if (condition !== undefined && !condition.ifRevision.includes(stored.revision)) {
    throw stale(liveItem(stored))
  }
}

/**
 * Checks that `editor` may change the post: anyone may, unless the operator protected it, which
 * leaves it to the operator alone (Forbidden otherwise). Throws the DomainError.
 */
export function assertMayChange(stored: StoredNews, editor: Editor): void {
  if (stored.protected === true && editor !== OPERATOR) {
    throw forbidden({ reason: 'protected' })
  }
}

/** Checks that a restore from the trash may go ahead: NotFound, or Conflict(NotInTrash). */
export function assertRestorable(
  stored: StoredNews | undefined,
): asserts stored is StoredNews & { readonly deletedAt: string } {
  if (stored === undefined) throw notFound()
  if (stored.deletedAt === null) throw conflict('NotInTrash')
}

/** The public face of a live post: no trash bookkeeping. */
export function liveItem({ deletedAt: _deletedAt, ...item }: StoredNews): NewsItem {
  return item
}

export function trashedItem(stored: StoredNews & { readonly deletedAt: string }): TrashedNewsItem {
  return { ...liveItem(stored), deletedAt: stored.deletedAt }
}

/** The post as its first revision left it: what a repeated create answers. */
export function firstVersion(stored: StoredNews, first: NewsRevision): NewsItem {
  return {
    ...liveItem(stored),
    ...draftOf(first),
    updatedAt: first.at,
    revision: first.revision,
  }
}

/** An idempotency key remembered for a create: which post it made, and from what. */
export interface IdempotencyRecord {
  readonly key: string
  /** The create's fields as stored, so that a repeat can be told from a different post. */
  readonly fingerprint: string
  readonly newsId: string
  readonly createdAt: string
}

/** The same draft always gives the same fingerprint; any changed field gives another. */
export function fingerprintOf(draft: NewsDraft): string {
  return JSON.stringify([draft.title, draft.body, draft.author])
}

/** Whether a remembered key still counts at `now`. */
export function isKeyLive(record: IdempotencyRecord, now: Date): boolean {
  return now.getTime() - Date.parse(record.createdAt) < IDEMPOTENCY_KEY_TTL_MS
}

/** A valid Idempotency-Key: 1 to 255 visible ASCII characters. */
export function isIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && /^[\x21-\x7e]+$/.test(key)
}

/**
 * How far back the live stream replays: a reader that comes back within it is told exactly what
 * it missed (MAX_REPLAY changes at most); one away longer is told to reload (a `reset`).
 */
export const EVENT_REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000

/** How many days the change log (NewsChange) keeps a change: the recent changes' reach. */
export const CHANGE_LOG_RETENTION_DAYS = 30

/** CHANGE_LOG_RETENTION_DAYS in milliseconds: older changes are purged. */
export const CHANGE_LOG_RETENTION_MS = CHANGE_LOG_RETENTION_DAYS * 24 * 60 * 60 * 1000

/**
 * What purging at `now` removes: posts trashed before one cutoff, keys made before another,
 * and changes logged before the third.
 */
export interface PurgeCutoffs {
  readonly trashedBefore: string
  readonly keysBefore: string
  readonly changesBefore: string
}

export function purgeCutoffs(now: Date, trashDays: number = DEFAULT_TRASH_DAYS): PurgeCutoffs {
  const day = 24 * 60 * 60 * 1000
  return {
    trashedBefore: new Date(now.getTime() - trashDays * day).toISOString(),
    keysBefore: new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS).toISOString(),
    changesBefore: new Date(now.getTime() - CHANGE_LOG_RETENTION_MS).toISOString(),
  }
}

/** The version that was current at `instant`, from a history listed newest first. */
export function versionAt(
  history: readonly NewsRevision[],
  instant: string,
): NewsRevision | undefined {
  return history.find((revision) => revision.at < instant)
}

export function draftOf({ title, body, author }: NewsDraft): NewsDraft {
  return { title, body, author }
}

export function sameDraft(a: NewsDraft, b: NewsDraft): boolean {
  return NEWS_FIELDS.every((field) => a[field] === b[field])
}

function definedChanges(changes: NewsChanges): NewsChanges {
  const out: Record<string, string> = {}
  for (const field of NEWS_FIELDS) {
    const value = changes[field]
    if (value !== undefined) out[field] = value
  }
  return out
}
