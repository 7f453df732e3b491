import { createActorContext } from '@xstate/react'
import { useEffect, useState, type ReactNode } from 'react'
import { createActor } from 'xstate'
import type { NewsChangeFeed } from '@/domain/ports/news-changes.port'
import type { AppServices } from '@/ui/shared/app-services'
import type { Inspect } from '@/ui/shared/inspection'
import type { PageData } from '@/ui/shared/page-data'
import { newsStoreMachine } from '@/ui/store/news-store.machine'
import { provideNewsStore, storeInputOf, type NewsStoreRef } from '@/ui/store/news-store.provide'

/**
 * The long-lived news store, one per app. Screens read it with `NewsStore.useSelector` and send
 * to it through `NewsStore.useActorRef()`; NewsStoreProvider makes it.
 */
export const NewsStore = createActorContext(newsStoreMachine)

export interface NewsStoreProviderProps {
  readonly services: AppServices
  /** What the server rendered the page with: the store starts holding its list and post. */
  readonly pageData?: PageData
  /** The site's live changes, followed once the app runs (never while the server renders). */
  readonly changes?: NewsChangeFeed
  /** Watches the store and live updates (the inspector in development, a recorder in tests). */
  readonly inspect?: Inspect
  readonly children: ReactNode
}

/**
 * Makes the news store for what it wraps, provided with the app's use cases and effects. It
 * starts once the page runs: the server renders from its first snapshot, which holds the page
 * data, and makes no other actor.
 */
export function NewsStoreProvider({
  services,
  pageData,
  changes,
  inspect,
  children,
}: NewsStoreProviderProps) {
  const [logic] = useState(() => provideNewsStore(services))
  const [options] = useState(() => ({ input: storeInputOf(pageData), inspect }))
  return (
    <NewsStore.Provider logic={logic} options={options}>
      {changes !== undefined && (
        <LiveUpdates changes={changes} since={pageData?.seq} inspect={inspect} />
      )}
      {children}
    </NewsStore.Provider>
  )
}

interface LiveUpdatesProps {
  readonly changes: NewsChangeFeed
  /** The version the page was rendered at: what changed since is told first. */
  readonly since: number | undefined
  readonly inspect: Inspect | undefined
}

/** Follows the site's live changes into the news store (the live-updates machine). */
function LiveUpdates({ changes, since, inspect }: LiveUpdatesProps) {
  const store = NewsStore.useActorRef()
  useEffect(() => followChanges(store, changes, since, inspect), [store, changes, since, inspect])
  return null
}

function followChanges(
  store: NewsStoreRef,
  changes: NewsChangeFeed,
  since: number | undefined,
  inspect: Inspect | undefined,
): () => void {
  let stopped = false
  let live: { stop: () => void } | undefined
  // The machine loads once the page runs, as a chunk of its own: the first visit's bundle holds
  // none of it. Where it cannot load, the page shows what it loaded, as without it.
  import('@/ui/store/live-updates.provide').then(
    ({ provideLiveUpdates }) => {
      if (stopped) return
      const machine = provideLiveUpdates(changes, (event) => store.send(event))
      const input = { since: Number.isSafeInteger(since) ? since : undefined }
      live = createActor(machine, { inspect, input }).start()
    },
    () => undefined,
  )
  return () => {
    stopped = true
    live?.stop()
  }
}
