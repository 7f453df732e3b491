import type { UseCases } from '@/application/use-cases'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsPageQuery } from '@/domain/ports/news-repository.port'
import { fromUseCase } from '@/ui/shared/machine-effects'
import type { NewsStoreRef } from '@/ui/store/news-store'
import type { StorePageParams } from '@/ui/store/news-store.types'

/**
 * A screen's way to load one item and hand it to the store (the spec's get_news_by_id),
 * noting when the load began so that the store can tell an answer older than a save.
 */
export function itemLoader(useCases: UseCases, store: NewsStoreRef) {
  let since = 0
  return {
    getNewsItem: fromUseCase((id: string) => {
      since = store.getSnapshot().context.saves
      return useCases.getNewsItem.execute(id)
    }),
    storeItem: (_: unknown, item: NewsItem) => store.send({ type: 'get_news_by_id', item, since }),
  }
}

/** The same for pages of the list (the spec's get_news). */
export function pageLoader(useCases: UseCases, store: NewsStoreRef) {
  let since = 0
  return {
    listNews: fromUseCase((query: NewsPageQuery) => {
      since = store.getSnapshot().context.saves
      return useCases.listNews.execute(query)
    }),
    storePage: (_: unknown, page: StorePageParams) =>
      store.send({ type: 'get_news', ...page, since }),
  }
}
