import type { AppServices } from '@/ui/app/app-services'
import { newsListMachine } from '@/ui/features/news-list/news-list.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideNewsList = ({ useCases, store }: AppServices) =>
  newsListMachine.provide({
    actors: { listNews: fromUseCase((query) => useCases.listNews.execute(query)) },
    actions: { storePage: (_, page) => store.send({ type: 'get_news', ...page }) },
  })
