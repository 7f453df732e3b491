import { assign, setup } from 'xstate'
import type { NewsPage, NewsPageQuery } from '@/domain/ports/news-repository.port'
import { stubUseCase } from '@/ui/shared/machine-effects'
import type { StorePageParams } from '@/ui/store/news-store.types'

export type { StorePageParams }

export interface NewsListContext {
  /** The page the list starts at (the address's `?cursor=`); undefined for the first. */
  readonly start?: string
  /** The token of the next page, while more remain. */
  readonly next: string | undefined
}

export type NewsListEvent =
  | { readonly type: 'news.retry' }
  | { readonly type: 'news.loadMore' }
  /** Load the first page again: the live stream missed changes (a reset). */
  | { readonly type: 'news.reload' }

/**
 * The home page: loads its first page (or the page its address names) once when it opens, then further pages on request
 * (the screen asks when the visitor scrolls to the end or presses 'Load more'). When the live
 * stream cannot tell what it missed, it loads the first page again, whatever it was doing.
 */
export const newsListMachine = setup({
  types: {
    context: {} as NewsListContext,
    events: {} as NewsListEvent,
    input: {} as { readonly cursor?: string } | undefined,
  },
  actors: {
    listNews: stubUseCase<NewsPage, NewsPageQuery>(),
  },
  actions: {
    /** Hands a loaded page to the news store (the spec's get_news). */
    storePage: (_, _params: StorePageParams): void => undefined,
  },
  guards: {
    hasMore: ({ context }) => context.next !== undefined,
  },
}).createMachine({
  id: 'newsList',
  context: ({ input }) => ({ start: input?.cursor, next: undefined }),
  on: {
    'news.reload': { target: '.loading', reenter: true },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'listNews',
        input: ({ context }) => (context.start === undefined ? {} : { cursor: context.start }),
        onDone: {
          target: 'ready',
          actions: [
            {
              type: 'storePage',
              params: ({ event }) => ({ items: event.output.items, append: false }),
            },
            assign({ next: ({ event }) => event.output.next }),
          ],
        },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'news.retry': { target: 'loading' } },
    },
    ready: {
      on: { 'news.loadMore': { guard: 'hasMore', target: 'loadingMore' } },
    },
    loadingMore: {
      tags: ['busy'],
      invoke: {
        src: 'listNews',
        input: ({ context }) => ({ cursor: context.next }),
        onDone: {
          target: 'ready',
          actions: [
            {
              type: 'storePage',
              params: ({ event }) => ({ items: event.output.items, append: true }),
            },
            assign({ next: ({ event }) => event.output.next }),
          ],
        },
        onError: { target: 'loadMoreFailed' },
      },
    },
    loadMoreFailed: {
      // 'Load more' stays on screen and tries the same page again.
      on: { 'news.loadMore': { target: 'loadingMore' } },
    },
  },
})
