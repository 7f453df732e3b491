import type { AppServices } from '@/ui/shared/app-services'
import { articleMachine, type DeleteRequest } from '@/ui/features/article/article.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideArticle = ({ useCases, store, edge, itemLoader }: AppServices) => {
  const { getNewsItem, storeItem } = itemLoader()
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
