import type { SearchNewsInput } from '@/application/search-news.use-case'
import type { UseCases } from '@/application/use-cases'
import type { AppServices } from '@/ui/shared/app-services'
import { searchMachine } from '@/ui/features/search/search.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

const provided = new WeakMap<UseCases, ReturnType<typeof provideWith>>()

/**
 * The search machine with the use case it invokes: made once for the app's use cases, which are
 * all it needs, rather than again for each search (the server renders one for each request).
 */
export const provideSearch = ({ useCases }: AppServices) => {
  let machine = provided.get(useCases)
  if (machine === undefined) {
    machine = provideWith(useCases)
    provided.set(useCases, machine)
  }
  return machine
}

function provideWith(useCases: UseCases) {
  return searchMachine.provide({
    actors: {
      searchNews: fromUseCase((input: SearchNewsInput) => useCases.searchNews.execute(input)),
    },
  })
}
