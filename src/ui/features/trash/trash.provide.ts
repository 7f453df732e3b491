import type { AppServices } from '@/ui/shared/app-services'
import { trashMachine } from '@/ui/features/trash/trash.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'
import type { NewsPageQuery } from '@/domain/ports/news-repository.port'

export const provideTrash = ({ useCases, edge }: AppServices) =>
  trashMachine.provide({
    actors: {
      listTrash: fromUseCase((query: NewsPageQuery) => useCases.listTrash.execute(query)),
      restoreNews: fromUseCase((id: string) => useCases.restoreNews.execute(id)),
    },
    actions: edge,
  })
