import type { ScreenServices } from '@/ui/shared/app-context'
import { newsFormMachine, type CreateRequest } from '@/ui/features/news-form/news-form.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'
import { itemLoader } from '@/ui/store/news-store.provide'

export const provideNewsForm = ({ useCases, store, edge }: ScreenServices) => {
  const { getNewsItem, storeItem } = itemLoader(store, useCases)
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
