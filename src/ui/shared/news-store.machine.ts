import { assign, emit, setup } from 'xstate'
import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import {
  asDomainError,
  effectStubs,
  failureToast,
  isNotFound,
  isStale,
  stubUseCase,
} from '@/ui/shared/machine-effects'
import {
  insertInOrder,
  mergeItems,
  overlay,
  rebase,
  storedValues,
  unsavedOf,
  without,
  type PendingEdit,
  type UnsavedEdit,
} from '@/ui/shared/news-store.logic'
import {
  notListed,
  queueFetch,
  recordChange,
  replaceIfNewer,
  type LatestChange,
  type LiveFetch,
} from '@/ui/shared/live-updates.logic'
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
  /**
   * Posts created or restored elsewhere, loaded and waiting behind the list's 'N new posts'
   * button, newest first: nothing moves under the reader until they ask.
   */
  readonly arrivals: readonly NewsItem[]
  /** What the live stream last said of each post the store shows (see liveStatusOf). */
  readonly latest: Readonly<Record<string, LatestChange>>
  /** Posts to load because the stream named them, oldest first; the first is loading. */
  readonly fetches: readonly LiveFetch[]
  /**
   * Edits the server refused (saved or deleted meanwhile), by post: the visitor's text waits
   * here, in memory, for the edit form's review, whatever became of the drafts in storage.
   */
  readonly unsaved: Readonly<Record<string, UnsavedEdit>>
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
      /** The values of the version the visitor's text was started from. */
      readonly base?: NewsDraft
    }
  /** The edit form took back the text of a refused edit (see `unsaved`). */
  | { readonly type: 'news.unsavedTaken'; readonly id: string }
  /** An item was deleted. */
  | { readonly type: 'news.removed'; readonly id: string }
  /** Bring a deleted post back (the delete toast's Undo). */
  | { readonly type: 'news.restore'; readonly id: string }
  /**
   * The live stream told of a change, made here or elsewhere: a post shown in the list is
   * loaded again in place; a new one waits in `arrivals`; any post shown notes it in `latest`,
   * which tells the article and the forms that they show an old or deleted version.
   */
  | { readonly type: 'news.changed'; readonly change: NewsChange }
  /**
   * The stream cannot tell what was missed (it was away too long): the store emits
   * `news.reload`, on which the screens load again what they show.
   */
  | { readonly type: 'news.reset' }
  /** The reader pressed 'N new posts': the arrivals go to the top of the list. */
  | { readonly type: 'news.showArrivals' }
  /** A load found the post gone (deleted while the stream could not say so). */
  | { readonly type: 'news.gone'; readonly id: string }

/** What the store tells its listeners (`store.on(type, …)`). */
export type NewsStoreEmitted = { readonly type: 'news.reload' }

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

/** Whether the store shows the post: in the list, as newsItem, or waiting as an arrival. */
function shows(context: NewsStoreContext, id: string): boolean {
  return [context.newsItem, ...context.news, ...context.arrivals].some((item) => item?._id === id)
}

/** What a change the stream told does to the store (see the `news.changed` event). */
function hear(context: NewsStoreContext, change: NewsChange): Partial<NewsStoreContext> {
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
function loaded(context: NewsStoreContext, item: NewsItem): Partial<NewsStoreContext> {
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
function gone(context: NewsStoreContext, id: string): Partial<NewsStoreContext> {
  const shown = [context.newsItem, ...context.news].filter((item) => item?._id === id)
  const revision = Math.max(0, ...shown.map((item) => item?.revision ?? 0)) + 1
  const change: NewsChange = { seq: 0, id, kind: 'deleted', revision, at: '' }
  return {
    latest: recordChange(context.latest, change),
    arrivals: context.arrivals.filter((item) => item._id !== id),
  }
}

/**
 * The long-lived store behind every screen. It merges what the list and single-item loads
 * return, and it owns edits, because an edit outlives the form that sent it: the visitor is
 * taken to the article at once, which shows the new values while the save is in flight. An
 * edit refused because the post changed meanwhile shows the stored post and offers to review;
 * the visitor's text stays in the edit form's draft. It also brings deleted posts back (the
 * delete toast's Undo), while edits save.
 *
 * The live stream's changes come in as `news.changed`: posts shown in the list are loaded again
 * and updated in place, new ones are loaded and wait behind the list's 'N new posts' button,
 * and `latest` remembers what was heard of every post shown, so that the article and the edit
 * form can say that they show an old or deleted version without changing under the reader.
 */
export const newsStoreMachine = setup({
  types: {
    context: {} as NewsStoreContext,
    events: {} as NewsStoreEvent,
    emitted: {} as NewsStoreEmitted,
  },
  actors: {
    editNews: stubUseCase<NewsItem, EditRequest>(),
    restoreNews: stubUseCase<NewsItem, string>(),
    /** Loads a post the live stream named. */
    getNewsItem: stubUseCase<NewsItem, string>(),
  },
  actions: {
    ...effectStubs,
    /** The edit form's draft of this post has been saved: forget it. */
    forgetEditDraft: (_, _id: string): void => undefined,
  },
  guards: {
    hasPendingEdit: ({ context }) => context.pending.length > 0,
    hasFetches: ({ context }) => context.fetches.length > 0,
    isStale: ({ event }) => 'error' in event && isStale(event.error),
    isNotFound: ({ event }) => 'error' in event && isNotFound(event.error),
    knowsItem: ({ context, event }) =>
      event.type === 'news.edit' &&
      storedValues(event.id, context.pending, [context.newsItem, ...context.news]) !== undefined,
  },
}).createMachine({
  id: 'newsStore',
  context: {
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
  },
  type: 'parallel',
  on: {
    get_news: {
      actions: assign(({ context, event }) => {
        const items = newerThanSaves(context, event.items, event.since)
        const pending = refreshStored(context.pending, items)
        const shown = items.map((item) => overlay(item, pending))
        return {
          pending,
          news: event.append ? mergeItems(context.news, shown) : shown,
          // A post the page brings is no longer new.
          arrivals: notListed(context.arrivals, shown),
        }
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
          ...(event.base === undefined ? {} : { base: event.base }),
        }
        const pending = [...context.pending, edit]
        return { pending, ...place(context, overlay(stored, pending), true) }
      }),
    },
    'news.unsavedTaken': {
      actions: assign(({ context, event }) => ({ unsaved: without(context.unsaved, event.id) })),
    },
    'news.removed': {
      actions: assign(({ context, event }) => ({
        news: context.news.filter((item) => item._id !== event.id),
        newsItem: context.newsItem?._id === event.id ? null : context.newsItem,
      })),
    },
    'news.changed': {
      actions: assign(({ context, event }) => hear(context, event.change)),
    },
    'news.reset': {
      // The screens load again; the reloaded first page brings what the arrivals held.
      actions: [assign({ arrivals: [] }), emit({ type: 'news.reload' as const })],
    },
    'news.showArrivals': {
      actions: assign(({ context }) => ({
        news: [...notListed(context.arrivals, context.news), ...context.news],
        arrivals: [],
      })),
    },
    'news.gone': {
      actions: assign(({ context, event }) => gone(context, event.id)),
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
                    unsaved: without(context.unsaved, event.output._id),
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
                // and offer to review; the visitor's text waits in memory (and in the tab's
                // draft) for the edit form.
                guard: 'isStale',
                target: 'idle',
                actions: [
                  assign(({ context, event }) => {
                    const [failed, ...rest] = context.pending
                    const current = currentOf(event.error)
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
                // Deleted meanwhile: the text waits in memory, and the edit form offers to
                // restore the post and save it, or to save it as a new post.
                guard: 'isNotFound',
                target: 'idle',
                actions: [
                  {
                    type: 'showToast',
                    params: ({ context }) => ({
                      kind: 'error',
                      message: NOTICES.editOfDeleted,
                      action: {
                        label: TOAST_ACTIONS.review,
                        intent: {
                          type: 'navigate',
                          to: paths.editNews(context.pending[0]?.id ?? ''),
                        },
                      },
                    }),
                  },
                  // After the toast, which names the edit still first in line.
                  assign(({ context }) => {
                    const [failed, ...pending] = context.pending
                    if (failed === undefined) return {}
                    return {
                      pending,
                      unsaved: { ...context.unsaved, [failed.id]: unsavedOf(failed, 'deleted') },
                      ...place(context, overlay(failed.stored, pending)),
                      ...gone(context, failed.id),
                    }
                  }),
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
    refreshes: {
      initial: 'idle',
      states: {
        idle: {
          always: { guard: 'hasFetches', target: 'loading' },
        },
        loading: {
          invoke: {
            src: 'getNewsItem',
            input: ({ context }) => context.fetches[0]?.id ?? '',
            onDone: {
              target: 'idle',
              actions: assign(({ context, event }) => loaded(context, event.output)),
            },
            // Gone meanwhile (the stream says so too), or an outage: the next change or the
            // next load brings it.
            onError: {
              target: 'idle',
              actions: assign(({ context }) => ({ fetches: context.fetches.slice(1) })),
            },
          },
        },
      },
    },
  },
})
