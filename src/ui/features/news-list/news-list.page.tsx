import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import Masonry from 'react-masonry-css'
import { Link } from '@/ui/shared/links'
import { LoadFailed } from '@/ui/shared/load-failed'
import { usePageData } from '@/ui/shared/app-context'
import { provideNewsList } from '@/ui/features/news-list/news-list.provide'
import { usePagedMachine } from '@/ui/shared/paged-screen'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { cardId, NewsCard } from '@/ui/shared/news-card'
import { CardSlot, NewPostsButton } from '@/ui/features/news-list/live-list'
import { paths } from '@/ui/shared/paths'
import { useReloadOnReset } from '@/ui/store/live-updates.hooks'
import { liveStatusOf, notListed } from '@/ui/store/live-updates.logic'
import { NewsStore } from '@/ui/store/news-store.provider'
import { LoadMoreFailed, NextPageLink, usePageCursor } from '@/ui/shared/load-more'
import { useHydrated } from '@/ui/shared/use-hydrated'
import { focusCard } from '@/ui/features/news-list/feed-card'
import { feedHandlers, focusWasLost, preloadFeedKeys } from '@/ui/features/news-list/feed-focus'

// 3 columns on wide screens, 2 on tablets, 1 on phones (docs/spec-deviations.md, decision 8).
const COLUMNS = { default: 3, 1024: 2, 640: 1 }
const EAGER_CARDS = 3

export function NewsListPage() {
  // Another page of the list (`?cursor=`) is another list: the screen, and its machine, start again.
  const cursor = usePageCursor()
  return <NewsListScreen key={cursor ?? ''} cursor={cursor} />
}

function NewsListScreen({ cursor }: { readonly cursor: string | undefined }) {
  usePageTitle('Latest news')
  // The page the server rendered (the first, or the one `?cursor=` names): the list starts
  // ready with it, and fetches nothing.
  const rendered = usePageData((pageData) => pageData.home(cursor))
  const [state, send] = usePagedMachine(
    provideNewsList,
    rendered === undefined
      ? { input: { cursor } }
      : { rendered: { start: cursor, next: rendered.next } },
  )
  const news = NewsStore.useSelector((snapshot) => snapshot.context.news)
  // What the live stream told: posts new to the list, and what became of the listed ones.
  const arrivals = NewsStore.useSelector(
    ({ context }) => notListed(context.arrivals, context.news).length,
  )
  const latest = NewsStore.useSelector((snapshot) => snapshot.context.latest)
  const showNewPosts = useShowNewPosts()
  useReloadOnReset(() => send({ type: 'news.reload' }))
  const hydrated = useHydrated()
  // The keys' code, fetched once the page runs, before any key is pressed.
  useEffect(() => {
    if (hydrated) preloadFeedKeys()
  }, [hydrated])
  const laidOut = useLaidOut()
  // The card that is the grid's one Tab stop: the last one focused, else the first (not deleted).
  const [active, setActive] = useState<string | undefined>(undefined)
  const focused = useRef<HTMLElement | null>(null)
  const lost = useCallback(() => focusWasLost(focused), [])
  const usable = news.filter((item) => liveStatusOf(latest[item._id], item) !== 'deleted')
  const tabStop = usable.find((item) => item._id === active) ?? usable[0]
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
      <NewPostsButton count={arrivals} onShow={showNewPosts} />
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
        // react-masonry-css puts the cards in its columns in turn, so the DOM goes column by
        // column: the feed's aria-owns gives screen readers the list's order, newest first, and
        // its keys move the focus in that order (feed-focus.ts, docs/behaviour.md).
        <Masonry
          breakpointCols={COLUMNS}
          className={laidOut ? 'news-grid' : 'news-grid news-grid-static'}
          columnClassName="news-grid-column"
          role="feed"
          aria-labelledby="news-list-heading"
          aria-busy={loadingMore}
          aria-owns={news.map((item) => cardId(item._id)).join(' ')}
          {...feedHandlers(setActive, focused)}
        >
          {news.map((item, index) => (
            <CardSlot
              key={item._id}
              id={item._id}
              title={item.title}
              deleted={liveStatusOf(latest[item._id], item) === 'deleted'}
            >
              <NewsCard
                item={item}
                eager={index < EAGER_CARDS}
                feed={{
                  position: index + 1,
                  size: hasMore || loadingMore ? -1 : news.length,
                  tabbable: hydrated ? item === tabStop : undefined,
                  focusWasLost: lost,
                }}
              />
            </CardSlot>
          ))}
        </Masonry>
      )}
      <div ref={sentinel} aria-hidden="true" />
      {state.matches('loadMoreFailed') && <LoadMoreFailed what="More news" />}
      {!hydrated && state.context.next !== undefined && news.length > 0 && (
        <NextPageLink href={paths.home(state.context.next)} />
      )}
      {hydrated && (hasMore || loadingMore) && news.length > 0 && (
        <div className="load-more">
          <button
            type="button"
            className="button"
            onClick={() => send({ type: 'news.loadMore' })}
            disabled={loadingMore}
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

/**
 * Puts the posts waiting behind 'N new posts' at the top of the list, and takes the reader to
 * the first of them (the button they pressed is gone).
 */
function useShowNewPosts(): () => void {
  const store = NewsStore.useActorRef()
  const [focusId, setFocusId] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (focusId === undefined) return
    // The card, which its focus makes the grid's Tab stop.
    const card = document.getElementById(cardId(focusId))
    if (card !== null) focusCard(card)
    setFocusId(undefined)
  }, [focusId])
  return () => {
    const { arrivals, news } = store.getSnapshot().context
    const [first] = notListed(arrivals, news)
    store.send({ type: 'news.showArrivals' })
    setFocusId(first?._id)
  }
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
