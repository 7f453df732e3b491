import type { ScreenServices } from '@/ui/shared/app-context'
import { pageLoader } from '@/ui/store/news-store.provide'
import { newsListMachine } from '@/ui/features/news-list/news-list.machine'

export const provideNewsList = ({ useCases, store }: ScreenServices) => {
  const { listNews, storePage } = pageLoader(store, useCases)
  return newsListMachine.provide({ actors: { listNews }, actions: { storePage } })
}
