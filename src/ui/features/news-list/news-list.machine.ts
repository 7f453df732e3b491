import { assign, setup } from 'xstate'
import type { NewsPage, NewsPageQuery } from '@/domain/ports/news-repository.port'
import { stubUseCase } from '@/ui/shared/machine-effects'
import {
  pageOf,
  pagedImplementations,
  pagedStates,
  type WithContext,
} from '@/ui/shared/paged-list.fragment'
import type { StorePageParams } from '@/ui/store/news-store.types'

export type { StorePageParams }

export interface NewsListContext {
  /** The page the list starts at (the address's `?cursor=`); undefined for the first. */
  readonly start?: string
  /** The token of the next page, while more remain. */
  readonly next: string | undefined
}

type Step = WithContext<NewsListContext>

/** A loaded page as the news store takes it: the first in place of the list, a later one below. */
const storedAs =
  (append: boolean) =>
  ({ event }: { readonly event: { readonly output: NewsPage } }): StorePageParams => ({
    items: event.output.items,
    append,
  })

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
    keepNext: assign((_, page: NewsPage) => ({ next: page.next })),
  },
  guards: {
    ...pagedImplementations.guards,
  },
}).createMachine({
  id: 'newsList',
  context: ({ input }) => ({ start: input?.cursor, next: undefined }),
  on: {
    'news.reload': { target: '.loading', reenter: true },
  },
  initial: 'loading',
  states: pagedStates({
    src: 'listNews',
    events: 'news',
    first: ({ context }: Step) => (context.start === undefined ? {} : { cursor: context.start }),
    more: ({ context }: Step) => ({ cursor: context.next }),
    // The list's posts live in the news store; the list keeps where the next page starts.
    shown: [
      { type: 'storePage', params: storedAs(false) },
      { type: 'keepNext', params: pageOf },
    ],
    added: [
      { type: 'storePage', params: storedAs(true) },
      { type: 'keepNext', params: pageOf },
    ],
  }),
})
