import type { ScreenServices } from '@/ui/shared/app-context'
import { articleMachine, type DeleteRequest } from '@/ui/features/article/article.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'
import { itemLoader } from '@/ui/store/news-store.provide'

export const provideArticle = ({ useCases, store, edge }: ScreenServices) => {
  const { getNewsItem, storeItem } = itemLoader(store, useCases)
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
