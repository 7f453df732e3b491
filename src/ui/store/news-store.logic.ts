import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import type { ToastParams } from '@/ui/shared/machine-effects'
import { TOAST_ACTIONS } from '@/ui/shared/notices'
import { paths } from '@/ui/shared/paths'

/** An edit sent to the server and not yet answered, with the last values the server confirmed. */
export interface PendingEdit {
  readonly id: string
  readonly changes: NewsChanges
  readonly stored: NewsItem
  /** The revision the form showed: the save applies only while it is still the stored one. */
  readonly condition?: WriteCondition
  /** The values of the version the visitor's text was started from, when the form knew them. */
  readonly base?: NewsDraft
}

/**
 * An edit the server refused, kept in memory until the edit form takes it back: the visitor's
 * text, the version it was started from, and why it was not saved.
 */
export interface UnsavedEdit {
  readonly values: NewsDraft
  /** The revision the visitor's text was written against. */
  readonly revision?: number
  /** That revision's values. */
  readonly base: NewsDraft
  /**
   * Saved meanwhile by someone else ('stale'), deleted meanwhile ('deleted'), or refused by the
   * operator's block or protection ('refused').
   */
  readonly reason: 'stale' | 'deleted' | 'refused'
}

/** What `failed` leaves to the edit form: its text in full, against the version it started from. */
export function unsavedOf(failed: PendingEdit, reason: UnsavedEdit['reason']): UnsavedEdit {
  const { title, author, body } = failed.stored
  const base = failed.base ?? { title, author, body }
  const revision = failed.condition?.ifRevision[0]
  return {
    values: { ...base, ...failed.changes },
    base,
    reason,
    ...(revision === undefined ? {} : { revision }),
  }
}

/** `record` without `id`. */
export function without<T>(record: Readonly<Record<string, T>>, id: string) {
  if (!(id in record)) return record
  const { [id]: _left, ...rest } = record
  return rest
}

/** Shows an item as the visitor expects it: the server's values with pending edits laid over. */
export function overlay(item: NewsItem, pending: readonly PendingEdit[]): NewsItem {
  return pending
    .filter((edit) => edit.id === item._id)
    .reduce<NewsItem>((shown, edit) => ({ ...shown, ...edit.changes }), item)
}

/**
 * Replaces the items with the same id and keeps the order; new items go at the end. A page
 * loaded after others may repeat a post that an edit, delete or restore shifted between
 * pages: it shows once, as it now is.
 */
export function mergeItems<T extends { readonly _id: string }>(
  list: readonly T[],
  incoming: readonly T[],
): T[] {
  const byId = new Map(incoming.map((item) => [item._id, item]))
  const merged = list.map((item) => byId.get(item._id) ?? item)
  const known = new Set(list.map((item) => item._id))
  return [...merged, ...incoming.filter((item) => !known.has(item._id))]
}

/** The server's values for an item: those kept by a pending edit, else what is shown. */
export function storedValues(
  id: string,
  pending: readonly PendingEdit[],
  candidates: readonly (NewsItem | null)[],
): NewsItem | undefined {
  return (
    pending.find((edit) => edit.id === id)?.stored ??
    candidates.find((item): item is NewsItem => item?._id === id)
  )
}

/**
 * After one of the visitor's own edits is saved, the edits queued behind it for the same post
 * were written against the version it replaced: they now name the saved revision, so that the
 * visitor's own edits never conflict with each other.
 */
export function rebase(
  pending: readonly PendingEdit[],
  saved: PendingEdit,
  output: NewsItem,
): PendingEdit[] {
  const replaced = saved.condition?.ifRevision.join(',')
  return pending.map((edit) =>
    edit.id === saved.id &&
    edit.condition !== undefined &&
    edit.condition.ifRevision.join(',') === replaced
      ? { ...edit, condition: { ifRevision: [output.revision] } }
      : edit,
  )
}

/** The list's order: newest first, as the server pages it. */
function newestFirst(a: NewsItem, b: NewsItem): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return a._id < b._id ? 1 : a._id > b._id ? -1 : 0
}

/** Puts an item back where the list's order places it (a restored post), or refreshes it. */
export function insertInOrder(list: readonly NewsItem[], item: NewsItem): NewsItem[] {
  const others = list.filter((each) => each._id !== item._id)
  const at = others.findIndex((each) => newestFirst(item, each) < 0)
  return at === -1 ? [...others, item] : [...others.slice(0, at), item, ...others.slice(at)]
}

/** An edit's error toast whose Review opens the post's edit form, where the text waits. */
export function reviewToast(message: string, id: string | undefined): ToastParams {
  return {
    kind: 'error',
    message,
    action: {
      label: TOAST_ACTIONS.review,
      intent: { type: 'navigate', to: paths.editNews(id ?? '') },
    },
  }
}
