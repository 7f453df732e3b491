import { fromCallback } from 'xstate'
import type { NewsChangeFeed } from '@/domain/ports/news-changes.port'
import {
  liveUpdatesMachine,
  type ChangeFeedInput,
  type LiveUpdatesEvent,
} from '@/ui/store/live-updates.machine'
import type { NewsStoreEvent } from '@/ui/store/news-store.types'

/** The change feed as the machine's `changeFeed` actor: each handler sends its event back. */
export function fromChangeFeed(feed: NewsChangeFeed) {
  return fromCallback<LiveUpdatesEvent, ChangeFeedInput>(({ sendBack, input }) => {
    const subscription = feed.open(input.since, {
      ready: (seq) => sendBack({ type: 'feed.ready', seq }),
      change: (change) => sendBack({ type: 'feed.change', change }),
      reset: (seq) => sendBack({ type: 'feed.reset', seq }),
      dropped: () => sendBack({ type: 'feed.dropped' }),
    })
    return () => subscription.close()
  })
}

/** The page's visibility, where there is a page (none on the server, nor in Node tests). */
export const documentVisibility = fromCallback<LiveUpdatesEvent>(({ sendBack }) => {
  if (typeof document === 'undefined') return undefined
  const report = () => sendBack({ type: document.hidden ? 'page.hidden' : 'page.visible' })
  document.addEventListener('visibilitychange', report)
  if (document.hidden) report()
  return () => document.removeEventListener('visibilitychange', report)
})

/**
 * The live-updates machine on `feed`, handing what it hears to the news store (`toStore`),
 * watching the page's visibility (tests pass their own).
 */
export function provideLiveUpdates(
  feed: NewsChangeFeed,
  toStore: (event: NewsStoreEvent) => void,
  visibility: typeof documentVisibility = documentVisibility,
) {
  return liveUpdatesMachine.provide({
    actors: { changeFeed: fromChangeFeed(feed), pageVisibility: visibility },
    actions: {
      deliver: (_, change) => toStore({ type: 'news.changed', change }),
      reload: () => toStore({ type: 'news.reset' }),
    },
  })
}
