/**
 * The browser's live change feed: the EventSource adapter on GET /api/events, shared by the
 * site's tabs of the browser where it can be (browser.live-feed.ts). Like the use cases
 * (browser.use-cases.ts), the adapters and their wire schemas load as a chunk of their own when
 * the app first opens the feed, after the page has hydrated, so the first visit's bundle holds
 * none of it.
 */
import { lazily } from '@/application/lazily'
import type { BrowserOptions } from '@/composition/browser/browser.container'
import type { NewsChangeFeed, NewsChangeSubscription } from '@/domain/ports/news-changes.port'

/** The feed the browser's entry hands the app. */
export function browserNewsChanges({ apiUrl }: BrowserOptions): NewsChangeFeed {
  return deferredNewsChanges(async () => {
    const { liveNewsChanges } = await import('@/composition/browser/browser.live-feed')
    return liveNewsChanges(apiUrl)
  })
}

/**
 * A feed that gets the real one from `load` when it is first opened. A load that fails (the
 * chunk did not arrive) drops that feed, as a lost connection would, so that the app waits and
 * tries again; the next open loads again.
 */
export function deferredNewsChanges(load: () => Promise<NewsChangeFeed>): NewsChangeFeed {
  const loaded = lazily(load)
  return {
    open(since, handlers) {
      let closed = false
      let opened: NewsChangeSubscription | undefined
      loaded().then(
        (feed) => {
          if (!closed) opened = feed.open(since, handlers)
        },
        () => {
          if (!closed) handlers.dropped()
        },
      )
      return {
        close: () => {
          closed = true
          opened?.close()
        },
      }
    },
  }
}
