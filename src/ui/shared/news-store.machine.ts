import { assign, setup } from 'xstate'
import type { NewsChanges, NewsItem } from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import {
  asDomainError,
  effectStubs,
  failureToast,
  isStale,
  stubUseCase,
} from '@/ui/shared/machine-effects'
import {
  insertInOrder,
  mergeItems,
  overlay,
  rebase,
  storedValues,
  type PendingEdit,
} from '@/ui/shared/news-store.logic'
import { NOTICES, TOAST_ACTIONS } from '@/ui/shared/notices'
import { paths } from '@/ui/shared/paths'

/** A page of the list for the store: the first replaces the list, later ones extend it. */
export interface StorePageParams {
  readonly items: readonly NewsItem[]
  readonly append: boolean
}

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
  /** The post being brought back from the trash (the delete toast's Undo), if any. */
  readonly restoring: string | null
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
  /**
   * The visitor saved an edit: show it at once, then save it, on the condition that the post is
   * still the revision the form showed.
   */
  | {
      readonly type: 'news.edit'
      readonly id: string
      readonly changes: NewsChanges
      readonly condition?: WriteCondition
    }
  /** An item was deleted. */
  | { readonly type: 'news.removed'; readonly id: string }
  /** Bring a deleted post back (the delete toast's Undo). */
  | { readonly type: 'news.restore'; readonly id: string }

export interface EditRequest {
  readonly id: string
  readonly changes: NewsChanges
  readonly condition?: WriteCondition
}

/** The stored post a conflicting save was refused with. */
function currentOf(error: unknown): NewsItem | undefined {
  const domainError = asDomainError(error)
  return domainError.code === 'Stale' ? domainError.current : undefined
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
 * taken to the article at once, which shows the new values while the save is in flight. An
 * edit refused because the post changed meanwhile shows the stored post and offers to review;
 * the visitor's text stays in the edit form's draft. It also brings deleted posts back (the
 * delete toast's Undo), while edits save.
 */
export const newsStoreMachine = setup({
  types: {
    context: {} as NewsStoreContext,
    events: {} as NewsStoreEvent,
  },
  actors: {
    editNews: stubUseCase<NewsItem, EditRequest>(),
    restoreNews: stubUseCase<NewsItem, string>(),
  },
  actions: {
    ...effectStubs,
    /** The edit form's draft of this post has been saved: forget it. */
    forgetEditDraft: (_, _id: string): void => undefined,
  },
  guards: {
    hasPendingEdit: ({ context }) => context.pending.length > 0,
    isStale: ({ event }) => 'error' in event && isStale(event.error),
    knowsItem: ({ context, event }) =>
      event.type === 'news.edit' &&
      storedValues(event.id, context.pending, [context.newsItem, ...context.news]) !== undefined,
  },
}).createMachine({
  id: 'newsStore',
  context: { news: [], newsItem: null, pending: [], saves: 0, savedAt: {}, restoring: null },
  type: 'parallel',
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
        const edit: PendingEdit = {
          id: event.id,
          changes: event.changes,
          stored,
          ...(event.condition === undefined ? {} : { condition: event.condition }),
        }
        const pending = [...context.pending, edit]
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
    edits: {
      initial: 'idle',
      states: {
        idle: {
          always: { guard: 'hasPendingEdit', target: 'saving' },
        },
        saving: {
          invoke: {
            src: 'editNews',
            input: ({ context }) => {
              const [edit] = context.pending
              return {
                id: edit?.id ?? '',
                changes: edit?.changes ?? {},
                ...(edit?.condition === undefined ? {} : { condition: edit.condition }),
              }
            },
            onDone: {
              target: 'idle',
              actions: [
                assign(({ context, event }) => {
                  const [saved, ...rest] = context.pending
                  const rebased = saved === undefined ? rest : rebase(rest, saved, event.output)
                  const pending = refreshStored(rebased, [event.output])
                  const saves = context.saves + 1
                  return {
                    pending,
                    saves,
                    savedAt: { ...context.savedAt, [event.output._id]: saves },
                    ...place(context, overlay(event.output, pending)),
                  }
                }),
                { type: 'forgetEditDraft', params: ({ event }) => event.output._id },
                { type: 'showToast', params: { kind: 'success', message: NOTICES.edited } },
              ],
            },
            onError: [
              {
                // Someone saved the post meanwhile: nothing was overwritten. Show what is stored
                // and offer to review; the visitor's text waits in the edit form's draft.
                guard: 'isStale',
                target: 'idle',
                actions: [
                  assign(({ context, event }) => {
                    const [, ...rest] = context.pending
                    const current = currentOf(event.error)
                    if (current === undefined) return {}
                    const pending = refreshStored(rest, [current])
                    const saves = context.saves + 1
                    return {
                      pending,
                      saves,
                      savedAt: { ...context.savedAt, [current._id]: saves },
                      ...place(context, overlay(current, pending)),
                    }
                  }),
                  {
                    type: 'showToast',
                    params: ({ event }) => ({
                      kind: 'error',
                      message: NOTICES.editConflict,
                      action: {
                        label: TOAST_ACTIONS.review,
                        intent: {
                          type: 'navigate',
                          to: paths.editNews(currentOf(event.error)?._id ?? ''),
                        },
                      },
                    }),
                  },
                ],
              },
              {
                target: 'idle',
                actions: [
                  assign(({ context }) => {
                    const [failed, ...pending] = context.pending
                    if (failed === undefined) return {}
                    return { pending, ...place(context, overlay(failed.stored, pending)) }
                  }),
                  { type: 'showToast', params: failureToast(NOTICES.tryAgainLater) },
                ],
              },
            ],
          },
        },
      },
    },
    restores: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'news.restore': {
              target: 'restoring',
              actions: assign({ restoring: ({ event }) => event.id }),
            },
          },
        },
        restoring: {
          invoke: {
            src: 'restoreNews',
            input: ({ context }) => context.restoring ?? '',
            onDone: {
              target: 'idle',
              actions: [
                assign(({ context, event }) => {
                  const pending = refreshStored(context.pending, [event.output])
                  return {
                    restoring: null,
                    pending,
                    news: insertInOrder(context.news, overlay(event.output, pending)),
                  }
                }),
                { type: 'showToast', params: { kind: 'success', message: NOTICES.restored } },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign({ restoring: null }),
                { type: 'showToast', params: failureToast(NOTICES.restoreFailed) },
              ],
            },
          },
        },
      },
    },
  },
})
