/**
 * The live feed's adapters, chosen when the app first opens the feed: this module loads as a
 * chunk of its own then (see browser.news-changes.ts), so the choice weighs nothing on the
 * first visit. Where the browser has Web Locks and BroadcastChannel, its tabs of the site share
 * one stream (shared-tab.news-changes.ts); elsewhere each tab opens its own.
 */
import { EventSourceNewsChanges } from '@/adapters/http/event-source.news-changes'
import { SHARED_STREAM_NAME, SharedTabNewsChanges } from '@/adapters/http/shared-tab.news-changes'
import type { NewsChangeFeed } from '@/domain/ports/news-changes.port'

export function liveNewsChanges(apiUrl: string): NewsChangeFeed {
  const stream = new EventSourceNewsChanges({ baseUrl: apiUrl })
  if (typeof BroadcastChannel !== 'function' || !('locks' in navigator)) return stream
  return new SharedTabNewsChanges({
    stream,
    locks: navigator.locks,
    channel: new BroadcastChannel(SHARED_STREAM_NAME),
  })
}
