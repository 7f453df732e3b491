import type { AppServices } from '@/ui/app/app-services'
import { newsFormMachine } from '@/ui/features/news-form/news-form.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideNewsForm = ({ useCases, store, edge, storeItem }: AppServices) =>
  newsFormMachine.provide({
    actors: {
      getNewsItem: fromUseCase((id: string) => useCases.getNewsItem.execute(id)),
      createNews: fromUseCase((draft) => useCases.createNews.execute(draft)),
    },
    actions: {
      ...edge,
      storeItem,
      requestEdit: (_, { id, changes }) => store.send({ type: 'news.edit', id, changes }),
    },
  })
