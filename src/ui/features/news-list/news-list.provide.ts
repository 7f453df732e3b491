import type { AppServices } from '@/ui/shared/app-services'
import type { NewsStoreRef } from '@/ui/store/news-store'
import { pageLoader } from '@/ui/store/store-loaders'
import { newsListMachine } from '@/ui/features/news-list/news-list.machine'

export const provideNewsList = ({ useCases }: AppServices, store: NewsStoreRef) => {
  const { listNews, storePage } = pageLoader(useCases, store)
  return newsListMachine.provide({ actors: { listNews }, actions: { storePage } })
}
