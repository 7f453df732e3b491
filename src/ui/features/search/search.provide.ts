import type { SearchNewsInput } from '@/application/search-news.use-case'
import type { AppServices } from '@/ui/shared/app-services'
import { searchMachine } from '@/ui/features/search/search.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideSearch = ({ useCases }: AppServices) =>
  searchMachine.provide({
    actors: {
      searchNews: fromUseCase((input: SearchNewsInput) => useCases.searchNews.execute(input)),
    },
  })
