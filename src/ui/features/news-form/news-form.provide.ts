import type { AppServices } from '@/ui/app/app-services'
import { newsFormMachine } from '@/ui/features/news-form/news-form.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideNewsForm = ({ useCases, store, edge, itemLoader }: AppServices) => {
  const { getNewsItem, storeItem } = itemLoader()
  return newsFormMachine.provide({
    actors: {
      getNewsItem,
      createNews: fromUseCase((draft) => useCases.createNews.execute(draft)),
    },
    actions: {
      ...edge,
      storeItem,
      requestEdit: (_, { id, changes }) => store.send({ type: 'news.edit', id, changes }),
    },
  })
}
