import type { ScreenServices } from '@/ui/shared/app-context'
import { historyMachine, type HistoryPageRequest } from '@/ui/features/history/history.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideHistory = ({ useCases, store, edge }: ScreenServices) =>
  historyMachine.provide({
    actors: {
      listRevisions: fromUseCase(({ id, cursor }: HistoryPageRequest) =>
        useCases.listRevisions.execute(id, { cursor }),
      ),
      restoreRevision: fromUseCase((request: { id: string; revision: number }) =>
        useCases.restoreRevision.execute(request),
      ),
    },
    actions: {
      ...edge,
      storeItem: (_, item) => store.send({ type: 'get_news_by_id', item }),
    },
  })
