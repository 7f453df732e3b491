import type { AppServices } from '@/ui/shared/app-services'
import { changesMachine } from '@/ui/features/changes/changes.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'
import type { ChangesQuery } from '@/domain/ports/news-repository.port'
import type { UndoChangeInput } from '@/application/undo-change.use-case'

export const provideChanges = ({ useCases, edge }: AppServices) =>
  changesMachine.provide({
    actors: {
      listChanges: fromUseCase((query: ChangesQuery) => useCases.listChanges.execute(query)),
      undoChange: fromUseCase((input: UndoChangeInput) => useCases.undoChange.execute(input)),
    },
    actions: edge,
  })
