import { createActorContext } from '@xstate/react'
import { createActor, type ActorRefFrom } from 'xstate'
import type { UseCases } from '@/application/use-cases'
import type { NewsChangeFeed } from '@/domain/ports/news-changes.port'
import type { AppServices } from '@/ui/shared/app-services'
import type { Inspect } from '@/ui/shared/inspection'
import { fromUseCase, type ToastIntent } from '@/ui/shared/machine-effects'
import type { PageData } from '@/ui/shared/page-data'
import { newsStoreMachine } from '@/ui/store/news-store.machine'

/**
 * The long-lived news store behind every screen (news-store.machine.ts), as React context:
 * `<NewsStore.Provider>` runs it as long as the app, `NewsStore.useActorRef()` and
 * `NewsStore.useSelector()` reach it from any screen.
 */
export const NewsStore = createActorContext(newsStoreMachine)

export type NewsStoreRef = ActorRefFrom<typeof newsStoreMachine>

/** The store's use cases and effects, from the app's services. */
export const provideNewsStore = ({ useCases, edge, drafts }: AppServices) =>
  newsStoreMachine.provide({
    actors: {
      editNews: fromUseCase((input) => useCases.editNews.execute(input)),
      restoreNews: fromUseCase((id: string) => useCases.restoreNews.execute(id)),
      getNewsItem: fromUseCase((id: string) => useCases.getNewsItem.execute(id)),
    },
    actions: {
      ...edge,
      // The form that saved has loaded the drafts' code: this import is already there.
      forgetEditDraft: (_, id) =>
        void import('@/ui/shared/draft-storage').then(({ draftsOf, draftKeys }) =>
          draftsOf(drafts).remove(draftKeys.edit(id)),
        ),
    },
  })

/** The store starts from the page the server rendered: it holds its data before the first render. */
export const storeInputOf = (pageData?: PageData) => ({
  items: pageData?.home?.items,
  item: pageData?.item?.item ?? undefined,
})

/** Does what a toast's button asks: an event for the news store, or a path to go to. */
export const performWith =
  (store: NewsStoreRef, { edge }: AppServices) =>
  (intent: ToastIntent) =>
    intent.type === 'navigate' ? edge.navigate(null, { to: intent.to }) : store.send(intent)

/**
 * Starts following the site's live changes into the news store (the live-updates machine),
 * from the version the page was rendered at (`seq`), and gives the function that stops it.
 * The browser calls it once the app runs: the server's render never opens a stream.
 */
export function followChanges(
  store: NewsStoreRef,
  changes: NewsChangeFeed | undefined,
  { inspect, seq }: { readonly inspect?: Inspect; readonly seq?: number } = {},
): () => void {
  if (changes === undefined) return () => undefined
  let stopped = false
  let live: { stop: () => void } | undefined
  // The machine loads once the page runs, as a chunk of its own: the first visit's bundle
  // holds none of it. Where it cannot load, the page shows what it loaded, as without it.
  import('@/ui/store/live-updates.provide').then(
    ({ provideLiveUpdates }) => {
      if (stopped) return
      const machine = provideLiveUpdates(changes, (event) => store.send(event))
      // What changed since the page was rendered is told first.
      const since = Number.isSafeInteger(seq) ? seq : undefined
      live = createActor(machine, { inspect, input: { since } }).start()
    },
    () => undefined,
  )
  return () => {
    stopped = true
    live?.stop()
  }
}
