import { assertEvent, assign, setup } from 'xstate'
import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsPageQuery, TrashPage } from '@/domain/ports/news-repository.port'
import {
  effectStubs,
  failureToast,
  isConflict,
  isNotFound,
  stubUseCase,
} from '@/ui/shared/machine-effects'
import { NOTICES } from '@/ui/shared/notices'
import { mergeItems } from '@/ui/store/news-store.logic'

/** A post that came back from the trash: what the page needs for a link to it. */
export interface RestoredPost {
  readonly id: string
  readonly title: string
}

export interface TrashContext {
  /** The page the trash starts at (the address's `?cursor=`); undefined for the first. */
  readonly start?: string
  /** The trashed posts shown, newest deletion first. */
  readonly items: readonly TrashedNewsItem[]
  /** The token of the next page, while more remain. */
  readonly next: string | undefined
  /** The id of the post being restored. */
  readonly restoring: string | undefined
  /** The post restored last, so that the page can link to it. */
  readonly restored: RestoredPost | undefined
}

export type TrashEvent =
  | { readonly type: 'trash.retry' }
  | { readonly type: 'trash.loadMore' }
  | { readonly type: 'trash.restore'; readonly id: string }

function without(context: TrashContext): Partial<TrashContext> {
  const post = context.items.find((item) => item._id === context.restoring)
  return {
    items: context.items.filter((item) => item._id !== context.restoring),
    restoring: undefined,
    restored: post === undefined ? context.restored : { id: post._id, title: post.title },
  }
}

/**
 * Recently deleted: loads the first page of the trash (or the page its address names) when it
 * opens, further pages on request, and restores one post at a time. A post that is already back (restored elsewhere) leaves the
 * list as if restored here; one purged meanwhile leaves it with its own notice.
 */
export const trashMachine = setup({
  types: {
    context: {} as TrashContext,
    events: {} as TrashEvent,
    input: {} as { readonly cursor?: string } | undefined,
  },
  actors: {
    listTrash: stubUseCase<TrashPage, NewsPageQuery>(),
    restoreNews: stubUseCase<NewsItem, string>(),
  },
  actions: {
    ...effectStubs,
  },
  guards: {
    hasMore: ({ context }) => context.next !== undefined,
    isListed: ({ context, event }) => {
      assertEvent(event, 'trash.restore')
      return context.items.some((item) => item._id === event.id)
    },
    isBackAlready: ({ event }) => 'error' in event && isConflict(event.error, 'NotInTrash'),
    isPurged: ({ event }) => 'error' in event && isNotFound(event.error),
  },
}).createMachine({
  id: 'trash',
  context: ({ input }) => ({
    start: input?.cursor,
    items: [],
    next: undefined,
    restoring: undefined,
    restored: undefined,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'listTrash',
        input: ({ context }) => (context.start === undefined ? {} : { cursor: context.start }),
        onDone: {
          target: 'ready',
          actions: assign({
            items: ({ event }) => event.output.items,
            next: ({ event }) => event.output.next,
          }),
        },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'trash.retry': { target: 'loading' } },
    },
    ready: {
      on: {
        'trash.loadMore': { guard: 'hasMore', target: 'loadingMore' },
        'trash.restore': {
          guard: 'isListed',
          target: 'restoring',
          actions: assign({ restoring: ({ event }) => event.id }),
        },
      },
    },
    loadingMore: {
      tags: ['busy'],
      invoke: {
        src: 'listTrash',
        input: ({ context }) => ({ cursor: context.next }),
        onDone: {
          target: 'ready',
          actions: assign({
            items: ({ context, event }) => mergeItems(context.items, event.output.items),
            next: ({ event }) => event.output.next,
          }),
        },
        onError: { target: 'loadMoreFailed' },
      },
    },
    loadMoreFailed: {
      on: {
        // 'Load more' stays on screen and tries the same page again.
        'trash.loadMore': { target: 'loadingMore' },
        'trash.restore': {
          guard: 'isListed',
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
          target: 'ready',
          actions: [
            assign(({ context }) => without(context)),
            { type: 'showToast', params: { kind: 'success', message: NOTICES.restored } },
          ],
        },
        onError: [
          {
            // Someone else restored it first: it is back all the same.
            guard: 'isBackAlready',
            target: 'ready',
            actions: [
              assign(({ context }) => without(context)),
              { type: 'showToast', params: { kind: 'success', message: NOTICES.restored } },
            ],
          },
          {
            guard: 'isPurged',
            target: 'ready',
            actions: [
              assign(({ context }) => ({ ...without(context), restored: context.restored })),
              { type: 'showToast', params: { kind: 'error', message: NOTICES.purged } },
            ],
          },
          {
            target: 'ready',
            actions: [
              assign({ restoring: undefined }),
              { type: 'showToast', params: failureToast(NOTICES.restoreFailed) },
            ],
          },
        ],
      },
    },
  },
})
