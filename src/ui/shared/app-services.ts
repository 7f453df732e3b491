import { createActor, type ActorRefFrom, type PromiseActorLogic } from 'xstate'
import type { UseCases } from '@/application/use-cases'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsChangeFeed } from '@/domain/ports/news-changes.port'
import type { NewsPage, NewsPageQuery } from '@/domain/ports/news-repository.port'
import { pageDataClaims, type PageData, type PageDataClaims } from '@/ui/shared/page-data'
import type { DraftStorage } from '@/ui/shared/draft-storage'
import type { Inspect } from '@/ui/shared/inspection'
import {
  fromUseCase,
  type NavigateParams,
  type ToastIntent,
  type ToastParams,
} from '@/ui/shared/machine-effects'
import { newsStoreMachine } from '@/ui/store/news-store.machine'
import type { StorePageParams } from '@/ui/store/news-store.types'

export interface AppEffects {
  readonly showToast: (params: ToastParams) => void
  readonly navigate: (params: NavigateParams) => void
}

export interface AppServicesOptions {
  /** Watches the news store (the inspector in development, a recorder in tests). */
  readonly inspect?: Inspect
  /** Where the forms keep drafts; by default the browser's local storage (see draftsOf). */
  readonly drafts?: DraftStorage
  /** What the server rendered the page with: the store and the first screen start from it. */
  readonly pageData?: PageData
  /** The site's live changes; without it the app shows only what it loads. */
  readonly changes?: NewsChangeFeed
}

export type NewsStoreRef = ActorRefFrom<typeof newsStoreMachine>

/** What every screen's machine is provided with: the use cases, the news store and the effects. */
export interface AppServices {
  readonly useCases: UseCases
  readonly store: NewsStoreRef
  /** Undefined: the browser's local storage, which the forms open with draftsOf. */
  readonly drafts: DraftStorage | undefined
  /** The server's page data, which the first screen takes instead of fetching it. */
  readonly pageData: PageDataClaims
  /** The toast and navigation effects, as machine action implementations. */
  readonly edge: {
    readonly showToast: (_: unknown, params: ToastParams) => void
    readonly navigate: (_: unknown, params: NavigateParams) => void
  }
  /** Does what a toast's button asks: an event for the news store, or a path to go to. */
  readonly perform: (intent: ToastIntent) => void
  /**
   * A screen's way to load one item and hand it to the store (the spec's get_news_by_id),
   * noting when the load began so that the store can tell an answer older than a save.
   */
  readonly itemLoader: () => {
    readonly getNewsItem: PromiseActorLogic<NewsItem, string>
    readonly storeItem: (_: unknown, item: NewsItem) => void
  }
  /** The same for pages of the list (the spec's get_news). */
  readonly pageLoader: () => {
    readonly listNews: PromiseActorLogic<NewsPage, NewsPageQuery>
    readonly storePage: (_: unknown, page: StorePageParams) => void
  }
  /**
   * Starts following the site's live changes into the news store (the live-updates machine),
   * and gives the function that stops it. The browser calls it once the app runs: the server's
   * render never opens a stream.
   */
  readonly followChanges: () => () => void
}

/** Builds the services and starts the long-lived news store. */
export function createAppServices(
  useCases: UseCases,
  effects: AppEffects,
  { inspect, drafts, pageData, changes }: AppServicesOptions = {},
): AppServices {
  const edge = {
    showToast: (_: unknown, params: ToastParams) => effects.showToast(params),
    navigate: (_: unknown, params: NavigateParams) => effects.navigate(params),
  }
  const store: NewsStoreRef = createActor(
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
    }),
    { inspect },
  )
  // The store lives as long as the app, so that it is running before any screen reports to it.
  store.start()
  // The page the server rendered: the store holds its data before the first render.
  if (pageData?.home !== undefined) {
    store.send({ type: 'get_news', items: pageData.home.items, append: false })
  }
  if (pageData?.item?.item) store.send({ type: 'get_news_by_id', item: pageData.item.item })
  return {
    useCases,
    store,
    drafts,
    pageData: pageDataClaims(pageData),
    edge,
    perform: (intent) => {
      if (intent.type === 'navigate') effects.navigate({ to: intent.to })
      else store.send(intent)
    },
    itemLoader: () => {
      let since = 0
      return {
        getNewsItem: fromUseCase((id: string) => {
          since = store.getSnapshot().context.saves
          return useCases.getNewsItem.execute(id)
        }),
        storeItem: (_, item) => store.send({ type: 'get_news_by_id', item, since }),
      }
    },
    pageLoader: () => {
      let since = 0
      return {
        listNews: fromUseCase((query: NewsPageQuery) => {
          since = store.getSnapshot().context.saves
          return useCases.listNews.execute(query)
        }),
        storePage: (_, page) => store.send({ type: 'get_news', ...page, since }),
      }
    },
    followChanges: () => {
      if (changes === undefined) return () => undefined
      let stopped = false
      let live: { stop: () => void } | undefined
      // The machine loads once the page runs, as a chunk of its own: the first visit's bundle
      // holds none of it. Where it cannot load, the page shows what it loaded, as without it.
      import('@/ui/store/live-updates.provide').then(
        ({ provideLiveUpdates }) => {
          if (stopped) return
          const machine = provideLiveUpdates(changes, (event) => store.send(event))
          // From the version the page was rendered at: what changed since is told first.
          const since = Number.isSafeInteger(pageData?.seq) ? pageData?.seq : undefined
          live = createActor(machine, { inspect, input: { since } }).start()
        },
        () => undefined,
      )
      return () => {
        stopped = true
        live?.stop()
      }
    },
  }
}
