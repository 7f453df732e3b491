import type { ActorRefFrom } from 'xstate'
import type { UseCases } from '@/application/use-cases'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsPageQuery } from '@/domain/ports/news-repository.port'
import type { Result } from '@/domain/result'
import type { AppServices } from '@/ui/shared/app-services'
import { fromUseCase } from '@/ui/shared/machine-effects'
import type { PageData } from '@/ui/shared/page-data'
import { newsStoreMachine } from '@/ui/store/news-store.machine'
import type { NewsStoreEvent, NewsStoreInput, StorePageParams } from '@/ui/store/news-store.types'

export type NewsStoreRef = ActorRefFrom<typeof newsStoreMachine>

/** The store's machine with the use cases and effects it invokes. */
export function provideNewsStore({ useCases, edge, drafts }: AppServices) {
  return newsStoreMachine.provide({
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
}

/** The list and the post the server rendered the page with: the store starts holding them. */
export function storeInputOf(pageData: PageData | undefined): NewsStoreInput {
  return { news: pageData?.home?.items, newsItem: pageData?.item?.item }
}

/**
 * A screen's way to load one item and hand it to the store (the spec's get_news_by_id), noting
 * when the load began so that the store can tell an answer older than a save.
 */
export function itemLoader(store: NewsStoreRef, useCases: UseCases) {
  const { load, report } = storeLoader(
    store,
    (id: string) => useCases.getNewsItem.execute(id),
    (item: NewsItem, since) => ({ type: 'get_news_by_id', item, since }),
  )
  return { getNewsItem: load, storeItem: report }
}

/** The same for pages of the list (the spec's get_news). */
export function pageLoader(store: NewsStoreRef, useCases: UseCases) {
  const { load, report } = storeLoader(
    store,
    (query: NewsPageQuery) => useCases.listNews.execute(query),
    (page: StorePageParams, since) => ({ type: 'get_news', ...page, since }),
  )
  return { listNews: load, storePage: report }
}

/** A use case as a promise actor that notes the store's saves as it starts, and the report. */
function storeLoader<Input, Output, Loaded>(
  store: NewsStoreRef,
  run: (input: Input) => Promise<Result<Output>>,
  event: (loaded: Loaded, since: number) => NewsStoreEvent,
) {
  let since = 0
  return {
    load: fromUseCase((input: Input) => {
      since = store.getSnapshot().context.saves
      return run(input)
    }),
    report: (_: unknown, loaded: Loaded) => store.send(event(loaded, since)),
  }
}
