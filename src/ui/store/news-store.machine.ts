import { assertEvent, assign, emit, setup } from 'xstate'
import type { NewsItem } from '@/domain/news-item.entity'
import {
  effectStubs,
  failureNotice,
  failureToast,
  isForbidden,
  isNotFound,
  isStale,
  stubUseCase,
} from '@/ui/shared/machine-effects'
import {
  insertInOrder,
  overlay,
  reviewToast,
  storedValues,
  without,
} from '@/ui/store/news-store.logic'
import { notListed } from '@/ui/store/live-updates.logic'
import { NOTICES } from '@/ui/shared/notices'

import {
  currentOf,
  editFailed,
  editOfDeleted,
  editQueued,
  editRefused,
  editSaved,
  editSavedMeanwhile,
  gone,
  hear,
  initialContext,
  itemLoaded,
  listLoaded,
  loaded,
  refreshStored,
} from '@/ui/store/news-store.context'
import type {
  EditRequest,
  NewsStoreContext,
  NewsStoreEmitted,
  NewsStoreEvent,
  NewsStoreInput,
} from '@/ui/store/news-store.types'

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
    input: {} as NewsStoreInput,
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
    isForbidden: ({ event }) => 'error' in event && isForbidden(event.error),
    knowsItem: ({ context, event }) => {
      assertEvent(event, 'news.edit')
      return (
        storedValues(event.id, context.pending, [context.newsItem, ...context.news]) !== undefined
      )
    },
  },
}).createMachine({
  id: 'newsStore',
  // What the page was rendered with, held from the start: the server renders from it unstarted.
  context: ({ input }) => initialContext(input),
  type: 'parallel',
  on: {
    get_news: {
      actions: assign(({ context, event }) => listLoaded(context, event)),
    },
    get_news_by_id: {
      actions: assign(({ context, event }) => itemLoaded(context, event)),
    },
    'news.edit': {
      guard: 'knowsItem',
      actions: assign(({ context, event }) => editQueued(context, event)),
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
      actions: [
        assign(({ context, event }) => hear(context, event.change)),
        emit(({ event }) => ({ type: 'news.heard' as const, change: event.change })),
      ],
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
                assign(({ context, event }) => editSaved(context, event.output)),
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
                  assign(({ context, event }) => editSavedMeanwhile(context, event.error)),
                  {
                    type: 'showToast',
                    params: ({ event }) =>
                      reviewToast(NOTICES.editConflict, currentOf(event.error)?._id),
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
                    params: ({ context }) =>
                      reviewToast(NOTICES.editOfDeleted, context.pending[0]?.id),
                  },
                  // After the toast, which names the edit still first in line.
                  assign(({ context }) => editOfDeleted(context)),
                ],
              },
              {
                // Refused by the operator: the toast says why, and Review takes the visitor's
                // text back to the form.
                guard: 'isForbidden',
                target: 'idle',
                actions: [
                  {
                    type: 'showToast',
                    params: ({ context, event }) =>
                      reviewToast(
                        failureNotice(event.error, NOTICES.tryAgainLater).message,
                        context.pending[0]?.id,
                      ),
                  },
                  assign(({ context }) => editRefused(context)),
                ],
              },
              {
                target: 'idle',
                actions: [
                  assign(({ context }) => editFailed(context)),
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
