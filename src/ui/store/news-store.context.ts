import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsItem } from '@/domain/news-item.entity'
import { toDomainError } from '@/domain/domain-error'
import {
  insertInOrder,
  mergeItems,
  overlay,
  rebase,
  storedValues,
  unsavedOf,
  without,
  type PendingEdit,
} from '@/ui/store/news-store.logic'
import { notListed } from '@/ui/store/live-updates.logic'
import { queueFetch, recordChange, replaceIfNewer } from '@/ui/store/live-updates.logic'

import type { NewsStoreContext, NewsStoreEvent, NewsStoreInput } from '@/ui/store/news-store.types'

/* How the store's context changes: pure functions the machine's actions call. */

const EMPTY: NewsStoreContext = {
  news: [],
  newsItem: null,
  pending: [],
  saves: 0,
  savedAt: {},
  restoring: null,
  arrivals: [],
  latest: {},
  fetches: [],
  unsaved: {},
}

/**
 * The store as it starts: as if the page's list and post had just loaded (get_news, then
 * get_news_by_id).
 */
export function initialContext({ news = [], newsItem }: NewsStoreInput = {}): NewsStoreContext {
  const listed = {
    ...EMPTY,
    ...listLoaded(EMPTY, { type: 'get_news', items: news, append: false }),
  }
  if (newsItem === undefined || newsItem === null) return listed
  return { ...listed, ...itemLoaded(listed, { type: 'get_news_by_id', item: newsItem }) }
}

/** The stored post a conflicting save was refused with. */
export function currentOf(error: unknown): NewsItem | undefined {
  const domainError = toDomainError(error)
  return domainError.code === 'Stale' ? domainError.current : undefined
}

/** Shows `item` wherever the store holds an item with its id. */
export function place(context: NewsStoreContext, item: NewsItem, asNewsItem = false) {
  return {
    newsItem: asNewsItem || context.newsItem?._id === item._id ? item : context.newsItem,
    news: context.news.map((each) => (each._id === item._id ? item : each)),
  }
}

/**
 * A load sent before a save of an item was answered may carry that item's old values; the
 * store keeps what it shows for such items, so an older answer cannot undo a save on screen.
 */
export function newerThanSaves(
  context: NewsStoreContext,
  items: readonly NewsItem[],
  since?: number,
) {
  if (since === undefined) return items
  const shown = new Map([...context.news, context.newsItem].map((item) => [item?._id, item]))
  return items.map((item) =>
    (context.savedAt[item._id] ?? 0) > since ? (shown.get(item._id) ?? item) : item,
  )
}

/** Pending edits remember the newest values the server confirmed. */
export function refreshStored(pending: readonly PendingEdit[], items: readonly NewsItem[]) {
  if (pending.length === 0) return pending
  const byId = new Map(items.map((item) => [item._id, item]))
  return pending.map((edit) => ({ ...edit, stored: byId.get(edit.id) ?? edit.stored }))
}

/** Whether the store shows the post: in the list, as newsItem, or waiting as an arrival. */
export function shows(context: NewsStoreContext, id: string): boolean {
  return [context.newsItem, ...context.news, ...context.arrivals].some((item) => item?._id === id)
}

/** What a change the stream told does to the store (see the `news.changed` event). */
export function hear(context: NewsStoreContext, change: NewsChange): Partial<NewsStoreContext> {
  const { id } = change
  const listed = context.news.find((item) => item._id === id)
  const arriving = context.fetches.some((fetch) => fetch.id === id && fetch.arrival)
  const waiting = arriving || context.arrivals.some((item) => item._id === id)
  // An edit or delete of a post this page does not show is no news: it loads as it is now.
  if (change.kind === 'edited' || change.kind === 'deleted') {
    if (!waiting && !shows(context, id)) return {}
  }
  const latest = recordChange(context.latest, change)
  if (change.kind === 'deleted') {
    return { latest, arrivals: context.arrivals.filter((item) => item._id !== id) }
  }
  // The visitor's own Undo: the restore's answer puts the post back in its place.
  if (context.restoring === id) return { latest }
  // Already listed at that revision (the visitor's own edit, saved): nothing to load.
  if (listed !== undefined && listed.revision >= change.revision) return { latest }
  // A post shown only on its own page (the article, the edit form) keeps what it shows: the
  // page says that it was edited, and loads the new version when the reader asks.
  if (change.kind === 'edited' && listed === undefined && !waiting) return { latest }
  return { latest, fetches: queueFetch(context.fetches, { id, arrival: listed === undefined }) }
}

/** A post the stream named has loaded: refresh it in place, or add it to the arrivals. */
export function loaded(context: NewsStoreContext, item: NewsItem): Partial<NewsStoreContext> {
  const [fetch, ...fetches] = context.fetches
  const latest = context.latest[item._id]
  if (latest?.deleted === true && latest.revision > item.revision) return { fetches }
  if (context.news.some((each) => each._id === item._id)) {
    const pending = refreshStored(context.pending, [item])
    return {
      fetches,
      pending,
      news: replaceIfNewer(context.news, overlay(item, pending)),
    }
  }
  if (context.arrivals.some((each) => each._id === item._id)) {
    return { fetches, arrivals: replaceIfNewer(context.arrivals, item) }
  }
  if (fetch?.arrival !== true) return { fetches }
  return { fetches, arrivals: insertInOrder(context.arrivals, item) }
}

/** Notes that a post on screen is gone: the revision after the newest the store shows. */
export function gone(context: NewsStoreContext, id: string): Partial<NewsStoreContext> {
  const shown = [context.newsItem, ...context.news].filter((item) => item?._id === id)
  const revision = Math.max(0, ...shown.map((item) => item?.revision ?? 0)) + 1
  const change: NewsChange = { seq: 0, id, kind: 'deleted', revision, at: '' }
  return {
    latest: recordChange(context.latest, change),
    arrivals: context.arrivals.filter((item) => item._id !== id),
  }
}

type EventOf<Type extends NewsStoreEvent['type']> = Extract<NewsStoreEvent, { type: Type }>

/** A page of the list came: the first replaces the list, later ones extend it. */
export function listLoaded(
  context: NewsStoreContext,
  event: EventOf<'get_news'>,
): Partial<NewsStoreContext> {
  const items = newerThanSaves(context, event.items, event.since)
  const pending = refreshStored(context.pending, items)
  const shown = items.map((item) => overlay(item, pending))
  return {
    pending,
    news: event.append ? mergeItems(context.news, shown) : shown,
    // A post the page brings is no longer new.
    arrivals: notListed(context.arrivals, shown),
  }
}

/** One post came. */
export function itemLoaded(
  context: NewsStoreContext,
  event: EventOf<'get_news_by_id'>,
): Partial<NewsStoreContext> {
  const [item = event.item] = newerThanSaves(context, [event.item], event.since)
  const pending = refreshStored(context.pending, [item])
  return { pending, ...place(context, overlay(item, pending), true) }
}

/** An edit joins the line of saves, and shows at once. */
export function editQueued(
  context: NewsStoreContext,
  event: EventOf<'news.edit'>,
): Partial<NewsStoreContext> {
  const stored = storedValues(event.id, context.pending, [context.newsItem, ...context.news])
  if (stored === undefined) return {}
  const edit: PendingEdit = {
    id: event.id,
    changes: event.changes,
    stored,
    ...(event.condition === undefined ? {} : { condition: event.condition }),
    ...(event.base === undefined ? {} : { base: event.base }),
  }
  const pending = [...context.pending, edit]
  return { pending, ...place(context, overlay(stored, pending), true) }
}

/** The first edit in line was saved as `saved`. */
export function editSaved(context: NewsStoreContext, saved: NewsItem): Partial<NewsStoreContext> {
  const [first, ...rest] = context.pending
  const rebased = first === undefined ? rest : rebase(rest, first, saved)
  const pending = refreshStored(rebased, [saved])
  const saves = context.saves + 1
  return {
    pending,
    saves,
    savedAt: { ...context.savedAt, [saved._id]: saves },
    unsaved: without(context.unsaved, saved._id),
    ...place(context, overlay(saved, pending)),
  }
}

/** The first edit in line was refused: someone saved the post meanwhile (`error` holds it). */
export function editSavedMeanwhile(
  context: NewsStoreContext,
  error: unknown,
): Partial<NewsStoreContext> {
  const [failed, ...rest] = context.pending
  const current = currentOf(error)
  if (current === undefined || failed === undefined) return {}
  const pending = refreshStored(rest, [current])
  const saves = context.saves + 1
  return {
    pending,
    saves,
    savedAt: { ...context.savedAt, [current._id]: saves },
    unsaved: { ...context.unsaved, [failed.id]: unsavedOf(failed, 'stale') },
    ...place(context, overlay(current, pending)),
  }
}

/** The first edit in line was refused: the post was deleted meanwhile. */
export function editOfDeleted(context: NewsStoreContext): Partial<NewsStoreContext> {
  const [failed, ...pending] = context.pending
  if (failed === undefined) return {}
  return {
    pending,
    unsaved: { ...context.unsaved, [failed.id]: unsavedOf(failed, 'deleted') },
    ...place(context, overlay(failed.stored, pending)),
    ...gone(context, failed.id),
  }
}

/** The first edit in line was refused by the operator's block or protection: its text waits. */
export function editRefused(context: NewsStoreContext): Partial<NewsStoreContext> {
  const [failed, ...pending] = context.pending
  if (failed === undefined) return {}
  return {
    pending,
    unsaved: { ...context.unsaved, [failed.id]: unsavedOf(failed, 'refused') },
    ...place(context, overlay(failed.stored, pending)),
  }
}

/** The first edit in line failed otherwise: the post shows its stored values again. */
export function editFailed(context: NewsStoreContext): Partial<NewsStoreContext> {
  const [failed, ...pending] = context.pending
  if (failed === undefined) return {}
  return { pending, ...place(context, overlay(failed.stored, pending)) }
}
