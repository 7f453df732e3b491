import type { NewsChanges, NewsItem } from '@/domain/news-item.entity'

/** An edit sent to the server and not yet answered, with the last values the server confirmed. */
export interface PendingEdit {
  readonly id: string
  readonly changes: NewsChanges
  readonly stored: NewsItem
}

/** Shows an item as the visitor expects it: the server's values with pending edits laid over. */
export function overlay(item: NewsItem, pending: readonly PendingEdit[]): NewsItem {
  return pending
    .filter((edit) => edit.id === item._id)
    .reduce<NewsItem>((shown, edit) => ({ ...shown, ...edit.changes }), item)
}

/** Replaces the items with the same id and keeps the order; new items go at the end. */
export function mergeItems(list: readonly NewsItem[], incoming: readonly NewsItem[]): NewsItem[] {
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
