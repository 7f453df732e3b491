import type { AppServices } from '@/ui/shared/app-services'
import { newsFormMachine, type CreateRequest } from '@/ui/features/news-form/news-form.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideNewsForm = ({ useCases, store, edge, itemLoader }: AppServices) => {
  const { getNewsItem, storeItem } = itemLoader()
  return newsFormMachine.provide({
    actors: {
      getNewsItem,
      createNews: fromUseCase(({ draft, idempotencyKey }: CreateRequest) =>
        useCases.createNews.execute(draft, idempotencyKey === undefined ? {} : { idempotencyKey }),
      ),
      restoreNews: fromUseCase((id: string) => useCases.restoreNews.execute(id)),
    },
    actions: {
      ...edge,
      storeItem,
      requestEdit: (_, edit) => store.send({ type: 'news.edit', ...edit }),
    },
  })
}
