/**
 * The test models of live updates: the live-updates machine (the stream's connection), and the
 * news store as the stream's changes reach it. xstate/graph walks each machine with these
 * events.
 */
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { notFound } from '@/domain/domain-error'
import type { NewsChange, NewsChangeKind } from '@/domain/news-change.entity'
import type { NewsItem } from '@/domain/news-item.entity'
import type { LiveUpdatesContext } from '@/ui/store/live-updates.machine'
import { liveUpdatesMachine } from '@/ui/store/live-updates.machine'
import type { NewsStoreContext } from '@/ui/store/news-store.types'
import { newsStoreMachine } from '@/ui/store/news-store.machine'
import type { Model } from './model-harness'
import { CREATED, FIRST_PAGE, HARBOUR, HARBOUR_CHANGED } from './models'

/** The event the `backoff` delay sends in `waiting`, as XState names it. */
export const BACKOFF_ELAPSED = 'xstate.after.backoff.liveUpdates.waiting'

/** A change as the stream tells it; `seq` follows the one the machine saw last. */
export function changeOf(
  kind: NewsChangeKind,
  id: string,
  revision: number,
  seq: number,
): NewsChange {
  return { seq, id, kind, revision, at: '2025-03-05T12:00:00.000Z' }
}

const liveContext = (snapshot: AnyMachineSnapshot) => snapshot.context as LiveUpdatesContext
export const SITE_VERSION = 10
export const RESET_VERSION = 20
/** Drops in a row the model tells apart: the first, and any later one. */
const MAX_ATTEMPTS_TOLD_APART = 2

export const liveUpdatesModel: Model = {
  machine: liveUpdatesMachine,
  // Positions from a small set, so that the graph stays finite: the site stands at 10 when the
  // stream first opens, one change makes it 11, and a reset finds it at 20.
  events: (snapshot) => {
    const { seq, hidden } = liveContext(snapshot)
    return [
      { type: 'feed.ready', seq: seq ?? SITE_VERSION },
      { type: 'feed.change', change: changeOf('edited', HARBOUR._id, 2, SITE_VERSION + 1) },
      { type: 'feed.reset', seq: RESET_VERSION },
      { type: 'feed.dropped' },
      { type: BACKOFF_ELAPSED },
      { type: hidden ? 'page.visible' : 'page.hidden' },
      // A minute after the page was hidden, once.
      ...(hidden && !snapshot.matches('paused') ? [{ type: 'live.pause' }] : []),
    ]
  },
  answers: {},
  // The count of drops grows without end; what tells states apart is whether a drop came
  // before, and whether more than one did.
  abstract: (snapshot) => {
    const { seq, attempt, hidden } = liveContext(snapshot)
    return {
      value: snapshot.value,
      seq,
      attempt: Math.min(attempt, MAX_ATTEMPTS_TOLD_APART),
      hidden,
    }
  },
  label: (event) => {
    if (event.type === BACKOFF_ELAPSED) return 'the wait is over'
    const change = (event as { change?: NewsChange }).change
    return change === undefined ? undefined : `${change.kind} #${change.seq}`
  },
}

const storeContext = (snapshot: AnyMachineSnapshot) => snapshot.context as NewsStoreContext

/** What a change's load answers: the post as the stream last told of it. */
export function postAt(context: NewsStoreContext, id: string): NewsItem {
  if (id === CREATED._id) return CREATED
  const revision = context.latest[id]?.revision ?? HARBOUR_CHANGED.revision
  return { ...HARBOUR_CHANGED, revision: Math.max(revision, HARBOUR_CHANGED.revision) }
}

const heard = (kind: NewsChangeKind, id: string, revision: number) => ({
  type: 'news.changed',
  change: changeOf(kind, id, revision, revision),
})

/** HARBOUR's life elsewhere: edited, deleted, restored; CREATED is new. */
export const LIVE_CHANGES = [
  heard('created', CREATED._id, 1),
  heard('edited', HARBOUR._id, 2),
  heard('deleted', HARBOUR._id, 3),
  heard('restored', HARBOUR._id, 4),
]

export const newsStoreLiveModel: Model = {
  machine: newsStoreMachine,
  events: () => [
    { type: 'get_news', items: FIRST_PAGE.items, append: false },
    { type: 'get_news_by_id', item: HARBOUR },
    ...LIVE_CHANGES,
    { type: 'news.showArrivals' },
    { type: 'news.reset' },
    { type: 'news.gone', id: HARBOUR._id },
  ],
  answers: {
    getNewsItem: {
      done: (snapshot) => {
        const context = storeContext(snapshot)
        const [fetch] = context.fetches
        return fetch === undefined ? [] : [postAt(context, fetch.id)]
      },
      // Gone meanwhile, or an outage: the same transition.
      errors: [notFound()],
    },
  },
  // To keep the graph small: the list loads, then the article, and only then does the stream
  // speak (the screens take other orders, tests/ui/live-updates.test.tsx); a change heard
  // again, or older than one heard, does nothing; the arrivals are shown or reset once there are
  // some; a post is found gone only before the stream said anything of it.
  skip: (snapshot, event) => {
    const { news, newsItem, arrivals, latest } = storeContext(snapshot)
    const heardAny = Object.keys(latest).length > 0
    if (news.length === 0) return event.type !== 'get_news'
    if (newsItem === null) return event.type !== 'get_news_by_id'
    switch (event.type) {
      case 'get_news':
      case 'get_news_by_id':
        return true
      case 'news.showArrivals':
      case 'news.reset':
        return arrivals.length === 0
      case 'news.gone':
        return heardAny
    }
    const change = (event as { change?: NewsChange }).change
    if (change === undefined) return false
    // One change heard while a load runs is enough to show the queue.
    if (storeContext(snapshot).fetches.length > 1) return true
    const before = latest[change.id]
    return before !== undefined && before.revision >= change.revision
  },
  abstract: (snapshot) => {
    const { news, newsItem, arrivals, latest, fetches } = storeContext(snapshot)
    const ids = (items: readonly (NewsItem | null)[]) =>
      items.map((item) => (item === null ? null : `${item._id}@${item.revision}`))
    return {
      value: snapshot.value,
      news: ids(news),
      newsItem: ids([newsItem]),
      arrivals: ids(arrivals),
      latest,
      fetches,
    }
  },
  label: (event: AnyEventObject) => {
    const change = (event as { change?: NewsChange }).change
    if (change !== undefined) return `${change.kind} ${change.id}`
    if (event.type === 'get_news') return 'first page'
    return undefined
  },
}
