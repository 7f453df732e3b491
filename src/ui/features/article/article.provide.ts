import type { AppServices } from '@/ui/shared/app-services'
import type { NewsStoreRef } from '@/ui/store/news-store'
import { itemLoader } from '@/ui/store/store-loaders'
import { articleMachine, type DeleteRequest } from '@/ui/features/article/article.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideArticle = ({ useCases, edge }: AppServices, store: NewsStoreRef) => {
  const { getNewsItem, storeItem } = itemLoader(useCases, store)
  return articleMachine.provide({
    actors: {
      getNewsItem,
      deleteNews: fromUseCase(({ id, condition }: DeleteRequest) =>
        useCases.deleteNews.execute(id, condition),
      ),
      restoreNews: fromUseCase((id: string) => useCases.restoreNews.execute(id)),
    },
    actions: {
      ...edge,
      storeItem,
      forgetItem: (_, id) => store.send({ type: 'news.removed', id }),
      markGone: (_, id) => store.send({ type: 'news.gone', id }),
    },
  })
}
