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
