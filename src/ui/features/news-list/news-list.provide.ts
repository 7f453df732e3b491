import type { AppServices } from '@/ui/shared/app-services'
import { newsListMachine } from '@/ui/features/news-list/news-list.machine'

export const provideNewsList = ({ pageLoader }: AppServices) => {
  const { listNews, storePage } = pageLoader()
  return newsListMachine.provide({ actors: { listNews }, actions: { storePage } })
}
