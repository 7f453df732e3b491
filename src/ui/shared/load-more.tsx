import { useSearchParams } from 'react-router-dom'
import { CURSOR_FIELD } from '@/ui/shared/paths'

export interface LoadMoreProps {
  /** A page is on its way. */
  readonly loading: boolean
  /** Nothing else is in flight, so another page may be asked for. */
  readonly ready: boolean
  readonly onLoadMore: () => void
}

/** The button that asks for the next page of a list that pages on request. */
export function LoadMore({ loading, ready, onLoadMore }: LoadMoreProps) {
  return (
    <div className="load-more">
      {/* Not `disabled`, so that the keyboard focus stays on it while the page loads. */}
      <button
        type="button"
        className="button"
        onClick={onLoadMore}
        aria-disabled={!ready}
        aria-busy={loading}
      >
        {loading ? 'Loading…' : 'Load more'}
      </button>
    </div>
  )
}

/**
 * Says that the next page failed (`what`, such as 'More news', could not be loaded), where the
 * list goes on: Load more stays on screen and tries the same page again.
 */
export function LoadMoreFailed({ what }: { readonly what: string }) {
  return (
    <p className="inline-error" role="alert">
      {what} could not be loaded. Press Load more to try again.
    </p>
  )
}

/**
 * The next page of a paged list as a real link (`?cursor=`), before the app runs: it works
 * without JavaScript, and crawlers follow it. Once the app runs, Load more takes its place and
 * brings the next page in below.
 */
export function NextPageLink({ href }: { readonly href: string }) {
  return (
    <div className="load-more">
      <a className="button" href={href} rel="next">
        Next page
      </a>
    </div>
  )
}

/** The page of its list that the address names (`?cursor=`); undefined for the first. */
export function usePageCursor(): string | undefined {
  const [params] = useSearchParams()
  return params.get(CURSOR_FIELD) || undefined
}
