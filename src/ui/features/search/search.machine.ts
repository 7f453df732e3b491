import { assign, setup } from 'xstate'
import type { SearchNewsInput } from '@/application/search-news.use-case'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsPage } from '@/domain/ports/news-repository.port'
import { parseSearchQuery, SEARCH_FIELD, type SearchQuery } from '@/domain/rules/search-query.rules'
import { fieldErrorsOf, stubUseCase } from '@/ui/shared/machine-effects'
import {
  pagedImplementations,
  pagedStates,
  type WithContext,
} from '@/ui/shared/paged-list.fragment'
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

type Step = WithContext<SearchContext>

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
  actions: {
    showPage: assign((_, page: NewsPage) => ({ items: page.items, next: page.next })),
    addPage: assign(({ context }, page: NewsPage) => ({
      items: mergeItems(context.items, page.items),
      next: page.next,
    })),
  },
  guards: {
    ...pagedImplementations.guards,
    isRefused: ({ context }) => context.refusal !== undefined,
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
    ...pagedStates({
      src: 'searchNews',
      events: 'search',
      first: ({ context }: Step) =>
        context.start === undefined ? { q: context.q } : { q: context.q, cursor: context.start },
      more: ({ context }: Step) => ({ q: context.q, cursor: context.next }),
    }),
  },
})
