import { useMemo, type ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { SEARCH_FIELD } from '@/domain/rules/search-query.rules'
import { usePageData } from '@/ui/shared/app-context'
import { NewsCard } from '@/ui/shared/news-card'
import { provideSearch } from '@/ui/features/search/search.provide'
import { searchContext, type SearchContext } from '@/ui/features/search/search.machine'
import { usePagedMachine } from '@/ui/shared/paged-screen'
import { cardHighlight } from '@/ui/shared/highlighted-text'
import { LoadFailed } from '@/ui/shared/load-failed'
import { LoadMore, LoadMoreFailed, NextPageLink, usePageCursor } from '@/ui/shared/load-more'
import { paths } from '@/ui/shared/paths'
import { PAGE_TITLES } from '@/ui/shared/page-titles'
import { useHydrated } from '@/ui/shared/use-hydrated'
import { usePageTitle } from '@/ui/shared/use-page-title'

const EAGER_CARDS = 3

/** The search page: the query lives in the address, so results can be shared and Back works. */
export function SearchPage() {
  const [params] = useSearchParams()
  const q = params.get(SEARCH_FIELD) ?? ''
  const cursor = usePageCursor()
  // A new query, or another page of it, is a new search: the screen, and its machine, start again.
  return <SearchScreen key={`${q}\n${cursor ?? ''}`} q={q} cursor={cursor} />
}

function SearchScreen({ q, cursor }: { readonly q: string; readonly cursor: string | undefined }) {
  // The page of results the server rendered (the first, or the one `?cursor=` names): the
  // search starts ready with it.
  const rendered = usePageData((pageData) => pageData.search(q, cursor))
  const [state, send] = usePagedMachine(
    provideSearch,
    rendered === undefined
      ? { input: { q, cursor } }
      : { rendered: searchContext(q, rendered, cursor) },
  )
  const { query, refusal, items, next } = state.context
  const highlight = useMemo(() => cardHighlight(query?.terms ?? []), [query])
  usePageTitle(PAGE_TITLES.search(query?.text ?? ''))
  const hydrated = useHydrated()
  const loading = state.matches('loading')
  const loadingMore = state.matches('loadingMore')
  const settled = state.matches('ready') || state.matches('loadMoreFailed')

  return (
    <section className="search" aria-labelledby="search-heading" aria-busy={state.hasTag('busy')}>
      <h1 id="search-heading" className="search-heading">
        {query === undefined ? (
          'Search'
        ) : (
          <>
            Results for “<bdi>{query.text}</bdi>”
          </>
        )}
      </h1>
      {/* Says what the search found, and says it again to screen readers as it changes. */}
      <p className="search-summary" role="status">
        {refusal ?? (loading ? 'Searching…' : summary(state.context, state.matches('failed')))}
      </p>
      {state.matches('failed') && (
        <LoadFailed what="The results" onRetry={() => send({ type: 'search.retry' })} />
      )}
      {settled && items.length === 0 && (
        <p className="search-hint">Every word must appear in a post: try fewer or other words.</p>
      )}
      {items.length > 0 && (
        <ol className="search-results" aria-labelledby="search-heading">
          {items.map((item, index) => (
            <li key={item._id}>
              <NewsCard item={item} eager={index < EAGER_CARDS} highlight={highlight} />
            </li>
          ))}
        </ol>
      )}
      {state.matches('loadMoreFailed') && <LoadMoreFailed what="More results" />}
      {!hydrated && next !== undefined && <NextPageLink href={paths.search(q, next)} />}
      {hydrated && (next !== undefined || loadingMore) && (
        <LoadMore
          loading={loadingMore}
          ready={settled}
          onLoadMore={() => send({ type: 'search.loadMore' })}
        />
      )}
    </section>
  )
}

/** What the results come to: how many posts (so far), or that none matches. */
function summary({ query, items, next }: SearchContext, failed: boolean): ReactNode {
  if (failed || query === undefined) return ''
  if (items.length === 0) {
    return (
      <>
        No posts match “<bdi>{query.text}</bdi>”
      </>
    )
  }
  const posts = items.length === 1 ? '1 post' : `${items.length} posts`
  return next === undefined ? `${posts} found` : `More than ${posts} found`
}
