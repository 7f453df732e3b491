import { assign, setup } from 'xstate'
import type { SearchNewsInput } from '@/application/search-news.use-case'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsPage } from '@/domain/ports/news-repository.port'
import { parseSearchQuery, SEARCH_FIELD, type SearchQuery } from '@/domain/rules/search-query.rules'
import { fieldErrorsOf, stubUseCase } from '@/ui/shared/machine-effects'
import { mergeItems } from '@/ui/store/news-store.logic'

export interface SearchContext {
  /** The query as the page's address holds it: each page of results is asked for with it. */
  readonly q: string
  /** The page of results the search starts at (the address's `?cursor=`); undefined for the first. */
  readonly start?: string
  /** The query as the domain reads it (its text and folded words); undefined when refused. */
  readonly query: SearchQuery | undefined
  /** The domain's reason for refusing the query ('Type a word to search for'), if it does. */
  readonly refusal: string | undefined
  /** The matching posts shown, best first. */
  readonly items: readonly NewsItem[]
  /** The token of the next page, while more remain. */
  readonly next: string | undefined
}

export type SearchEvent = { readonly type: 'search.retry' } | { readonly type: 'search.loadMore' }

/**
 * The search's context for the query `q`: judged by the domain's rules at once, so that a
 * refused query is never sent; with `page`, the results the server rendered the page with;
 * `start`, the page of results the address names.
 */
export function searchContext(q: string, page?: NewsPage, start?: string): SearchContext {
  const parsed = parseSearchQuery(q)
  return {
    q,
    ...(start === undefined ? {} : { start }),
    query: parsed.ok ? parsed.value : undefined,
    refusal: parsed.ok ? undefined : fieldErrorsOf(parsed.error)[SEARCH_FIELD],
    items: page?.items ?? [],
    next: page?.next,
  }
}

/**
 * The search page for one query (a new query is a new search): a query the domain refuses
 * shows its reason and asks nothing; any other loads the first page of results, then further
 * pages on request ('Load more').
 */
export const searchMachine = setup({
  types: {
    context: {} as SearchContext,
    events: {} as SearchEvent,
    input: {} as { readonly q: string; readonly cursor?: string },
  },
  actors: {
    searchNews: stubUseCase<NewsPage, SearchNewsInput>(),
  },
  guards: {
    isRefused: ({ context }) => context.refusal !== undefined,
    hasMore: ({ context }) => context.next !== undefined,
  },
}).createMachine({
  id: 'search',
  context: ({ input }) => searchContext(input.q, undefined, input.cursor),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'isRefused', target: 'refused' }, { target: 'loading' }],
    },
    refused: {},
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'searchNews',
        input: ({ context }) =>
          context.start === undefined ? { q: context.q } : { q: context.q, cursor: context.start },
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
      on: { 'search.retry': { target: 'loading' } },
    },
    ready: {
      on: { 'search.loadMore': { guard: 'hasMore', target: 'loadingMore' } },
    },
    loadingMore: {
      tags: ['busy'],
      invoke: {
        src: 'searchNews',
        input: ({ context }) => ({ q: context.q, cursor: context.next }),
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
      // 'Load more' stays on screen and tries the same page again.
      on: { 'search.loadMore': { target: 'loadingMore' } },
    },
  },
})
