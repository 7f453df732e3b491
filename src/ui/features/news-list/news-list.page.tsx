import { useSelector } from '@xstate/react'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import Masonry from 'react-masonry-css'
import { Link } from 'react-router-dom'
import { LoadFailed } from '@/ui/shared/load-failed'
import { useAppServices, useProvidedMachine } from '@/ui/shared/app-context'
import { provideNewsList } from '@/ui/features/news-list/news-list.provide'
import { useInspectedMachine } from '@/ui/shared/inspection'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { NewsCard } from '@/ui/features/news-list/news-card'
import { paths } from '@/ui/shared/paths'

// 3 columns on wide screens, 2 on tablets, 1 on phones (docs/spec-deviations.md, decision 8).
const COLUMNS = { default: 3, 1024: 2, 640: 1 }
const EAGER_CARDS = 3

export function NewsListPage() {
  usePageTitle('Latest news')
  const { store, pageData } = useAppServices()
  const machine = useProvidedMachine(provideNewsList)
  // The first page the server rendered: the list starts ready with it, and fetches nothing.
  const [rendered] = useState(() => pageData.home())
  const [state, send] = useInspectedMachine(
    machine,
    rendered === undefined
      ? {}
      : { snapshot: machine.resolveState({ value: 'ready', context: { next: rendered.next } }) },
  )
  const news = useSelector(store, (snapshot) => snapshot.context.news)
  const laidOut = useLaidOut()
  const hasMore = state.context.next !== undefined
  const loadingMore = state.matches('loadingMore')
  const sentinel = useLoadMoreOnScroll(hasMore && state.matches('ready'), () =>
    send({ type: 'news.loadMore' }),
  )

  return (
    <section
      className="news-list"
      aria-labelledby="news-list-heading"
      aria-busy={state.hasTag('busy')}
    >
      <h1 id="news-list-heading" className="visually-hidden">
        Latest news
      </h1>
      {state.matches('failed') && (
        <LoadFailed what="The news" onRetry={() => send({ type: 'news.retry' })} />
      )}
      {state.matches('ready') && news.length === 0 && (
        <div className="empty-state">
          <p>There are no news posts yet.</p>
          <Link className="button" to={paths.addNews()}>
            Write the first one
          </Link>
        </div>
      )}
      {news.length > 0 && (
        <Masonry
          breakpointCols={COLUMNS}
          className={laidOut ? 'news-grid' : 'news-grid news-grid-static'}
          columnClassName="news-grid-column"
        >
          {news.map((item, index) => (
            <NewsCard key={item._id} item={item} eager={index < EAGER_CARDS} />
          ))}
        </Masonry>
      )}
      <div ref={sentinel} aria-hidden="true" />
      {state.matches('loadMoreFailed') && (
        <p className="inline-error" role="alert">
          More news could not be loaded. Press Load more to try again.
        </p>
      )}
      {(hasMore || loadingMore) && news.length > 0 && (
        <div className="load-more">
          <button
            type="button"
            className="button"
            onClick={() => send({ type: 'news.loadMore' })}
            // A server-rendered page's button works once the app runs; until then it says so.
            disabled={loadingMore || !laidOut}
            aria-busy={loadingMore}
          >
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
      <p className="visually-hidden" role="status">
        {state.matches('loading') || loadingMore ? 'Loading news…' : ''}
      </p>
    </section>
  )
}

/** Calls `onVisible` when the returned element scrolls into view, while `active`. */
function useLoadMoreOnScroll(active: boolean, onVisible: () => void) {
  const ref = useRef<HTMLDivElement>(null)
  const callback = useRef(onVisible)
  useEffect(() => {
    callback.current = onVisible
  })
  useEffect(() => {
    const element = ref.current
    if (!active || element === null || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current()
      },
      { rootMargin: '400px 0px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [active])
  return ref
}

/**
 * Whether react-masonry-css has laid the grid out for this screen's width. As rendered on the
 * server, and while the browser hydrates, it has its default three columns: the stylesheet
 * arranges those for narrower screens (`.news-grid-static`). The layout effect runs in the same
 * commit as the grid's own measuring, so the two changes paint together: no shift between.
 */
function useLaidOut(): boolean {
  const [laidOut, setLaidOut] = useState(false)
  useLayoutEffect(() => setLaidOut(true), [])
  return laidOut
}
