import { setup } from 'xstate'
import type { NewsItem } from '@/domain/news-item.entity'
import { NOTICES } from '@/ui/shared/notices'
import { effectStubs, isNotFound, leaveForHome, stubUseCase } from '@/ui/shared/machine-effects'

export interface ArticleContext {
  readonly id: string
}

export type ArticleEvent = { readonly type: 'article.retry' } | { readonly type: 'article.delete' }

/** One article: load it, show it, delete it. */
export const articleMachine = setup({
  types: {
    context: {} as ArticleContext,
    events: {} as ArticleEvent,
    input: {} as { readonly id: string },
  },
  actors: {
    getNewsItem: stubUseCase<NewsItem, string>(),
    deleteNews: stubUseCase<void, string>(),
  },
  actions: {
    ...effectStubs,
    /** Hands the loaded item to the news store (the spec's get_news_by_id). */
    storeItem: (_, _item: NewsItem): void => undefined,
    /** Tells the news store the item is gone. */
    forgetItem: (_, _id: string): void => undefined,
  },
  guards: {
    isNotFound: ({ event }) => 'error' in event && isNotFound(event.error),
  },
}).createMachine({
  id: 'article',
  context: ({ input }) => ({ id: input.id }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'getNewsItem',
        input: ({ context }) => context.id,
        onDone: {
          target: 'viewing',
          actions: { type: 'storeItem', params: ({ event }) => event.output },
        },
        onError: [{ guard: 'isNotFound', target: 'notAvailable' }, { target: 'failed' }],
      },
    },
    failed: {
      on: { 'article.retry': { target: 'loading' } },
    },
    notAvailable: {
      type: 'final',
      entry: leaveForHome,
    },
    viewing: {
      on: { 'article.delete': { target: 'deleting' } },
    },
    deleting: {
      invoke: {
        src: 'deleteNews',
        input: ({ context }) => context.id,
        onDone: {
          target: 'deleted',
          actions: [
            { type: 'forgetItem', params: ({ context }) => context.id },
            { type: 'showToast', params: { kind: 'success', message: NOTICES.deleted } },
            { type: 'navigate', params: { to: '/' } },
          ],
        },
        onError: {
          target: 'viewing',
          actions: { type: 'showToast', params: { kind: 'error', message: NOTICES.deleteFailed } },
        },
      },
    },
    deleted: { type: 'final' },
  },
})
