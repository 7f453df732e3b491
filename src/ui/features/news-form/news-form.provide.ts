import type { AppServices } from '@/ui/shared/app-services'
import type { NewsStoreRef } from '@/ui/store/news-store'
import { itemLoader } from '@/ui/store/store-loaders'
import { newsFormMachine, type CreateRequest } from '@/ui/features/news-form/news-form.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideNewsForm = ({ useCases, edge }: AppServices, store: NewsStoreRef) => {
  const { getNewsItem, storeItem } = itemLoader(useCases, store)
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
