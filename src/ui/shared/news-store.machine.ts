import { assign, setup } from 'xstate'
import type { NewsChanges, NewsItem } from '@/domain/news-item.entity'
import { effectStubs, stubUseCase } from '@/ui/shared/machine-effects'
import { mergeItems, overlay, storedValues, type PendingEdit } from '@/ui/shared/news-store.logic'
import { NOTICES } from '@/ui/shared/notices'

export interface NewsStoreContext {
  /** The spec's shared 'news' slice: the list, newest first. */
  readonly news: readonly NewsItem[]
  /** The spec's newsItem: the single item loaded last. */
  readonly newsItem: NewsItem | null
  /** Edits sent in order, oldest first; the first is the one in flight. */
  readonly pending: readonly PendingEdit[]
  /** How many saves have been answered; a load notes it when it is sent (its `since`). */
  readonly saves: number
  /** For each id, the value of `saves` when a save of it was last answered. */
  readonly savedAt: Readonly<Record<string, number>>
}

export type NewsStoreEvent =
  /** A page of the list has loaded; the first page replaces the list, later ones extend it. */
  | {
      readonly type: 'get_news'
      readonly items: readonly NewsItem[]
      readonly append: boolean
      readonly since?: number
    }
  /** One item has loaded. */
  | { readonly type: 'get_news_by_id'; readonly item: NewsItem; readonly since?: number }
  /** The visitor saved an edit: show it at once, then save it. */
  | { readonly type: 'news.edit'; readonly id: string; readonly changes: NewsChanges }
  /** An item was deleted. */
  | { readonly type: 'news.removed'; readonly id: string }

export interface EditRequest {
  readonly id: string
  readonly changes: NewsChanges
}

/** Shows `item` wherever the store holds an item with its id. */
function place(context: NewsStoreContext, item: NewsItem, asNewsItem = false) {
  return {
    newsItem: asNewsItem || context.newsItem?._id === item._id ? item : context.newsItem,
    news: context.news.map((each) => (each._id === item._id ? item : each)),
  }
}

/**
 * A load sent before a save of an item was answered may carry that item's old values; the
 * store keeps what it shows for such items, so an older answer cannot undo a save on screen.
 */
function newerThanSaves(context: NewsStoreContext, items: readonly NewsItem[], since?: number) {
  if (since === undefined) return items
  const shown = new Map([...context.news, context.newsItem].map((item) => [item?._id, item]))
  return items.map((item) =>
    (context.savedAt[item._id] ?? 0) > since ? (shown.get(item._id) ?? item) : item,
  )
}

/** Pending edits remember the newest values the server confirmed. */
function refreshStored(pending: readonly PendingEdit[], items: readonly NewsItem[]) {
  if (pending.length === 0) return pending
  const byId = new Map(items.map((item) => [item._id, item]))
  return pending.map((edit) => ({ ...edit, stored: byId.get(edit.id) ?? edit.stored }))
}

/**
 * The long-lived store behind every screen. It merges what the list and single-item loads
 * return, and it owns edits, because an edit outlives the form that sent it: the visitor is
 * taken to the article at once, which shows the new values while the save is in flight.
 */
export const newsStoreMachine = setup({
  types: {
    context: {} as NewsStoreContext,
    events: {} as NewsStoreEvent,
  },
  actors: {
    editNews: stubUseCase<NewsItem, EditRequest>(),
  },
  actions: {
    ...effectStubs,
  },
  guards: {
    hasPendingEdit: ({ context }) => context.pending.length > 0,
    knowsItem: ({ context, event }) =>
      event.type === 'news.edit' &&
      storedValues(event.id, context.pending, [context.newsItem, ...context.news]) !== undefined,
  },
}).createMachine({
  id: 'newsStore',
  context: { news: [], newsItem: null, pending: [], saves: 0, savedAt: {} },
  initial: 'idle',
  on: {
    get_news: {
      actions: assign(({ context, event }) => {
        const items = newerThanSaves(context, event.items, event.since)
        const pending = refreshStored(context.pending, items)
        const shown = items.map((item) => overlay(item, pending))
        return { pending, news: event.append ? mergeItems(context.news, shown) : shown }
      }),
    },
    get_news_by_id: {
      actions: assign(({ context, event }) => {
        const [item = event.item] = newerThanSaves(context, [event.item], event.since)
        const pending = refreshStored(context.pending, [item])
        return { pending, ...place(context, overlay(item, pending), true) }
      }),
    },
    'news.edit': {
      guard: 'knowsItem',
      actions: assign(({ context, event }) => {
        const stored = storedValues(event.id, context.pending, [context.newsItem, ...context.news])
        if (stored === undefined) return {}
        const pending = [...context.pending, { id: event.id, changes: event.changes, stored }]
        return { pending, ...place(context, overlay(stored, pending), true) }
      }),
    },
    'news.removed': {
      actions: assign(({ context, event }) => ({
        news: context.news.filter((item) => item._id !== event.id),
        newsItem: context.newsItem?._id === event.id ? null : context.newsItem,
      })),
    },
  },
  states: {
    idle: {
      always: { guard: 'hasPendingEdit', target: 'saving' },
    },
    saving: {
      invoke: {
        src: 'editNews',
        input: ({ context }) => {
          const [edit] = context.pending
          return { id: edit?.id ?? '', changes: edit?.changes ?? {} }
        },
        onDone: {
          target: 'idle',
          actions: [
            assign(({ context, event }) => {
              const pending = refreshStored(context.pending.slice(1), [event.output])
              const saves = context.saves + 1
              return {
                pending,
                saves,
                savedAt: { ...context.savedAt, [event.output._id]: saves },
                ...place(context, overlay(event.output, pending)),
              }
            }),
            { type: 'showToast', params: { kind: 'success', message: NOTICES.edited } },
          ],
        },
        onError: {
          target: 'idle',
          actions: [
            assign(({ context }) => {
              const [failed, ...pending] = context.pending
              if (failed === undefined) return {}
              return { pending, ...place(context, overlay(failed.stored, pending)) }
            }),
            { type: 'showToast', params: { kind: 'error', message: NOTICES.tryAgainLater } },
          ],
        },
      },
    },
  },
})
