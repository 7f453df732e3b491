import { ContainerModule, type ServiceIdentifier } from 'inversify'
import { useCasesFor, type UseCases } from '@/application/use-cases'
import type { Mailer } from '@/domain/ports/mailer.port'
import type { NewsRepository } from '@/domain/ports/news-repository.port'

/** The ports, as service identifiers. Each composition root binds them to its adapters. */
export const PORTS = {
  newsRepository: Symbol.for('NewsRepository') as ServiceIdentifier<NewsRepository>,
  mailer: Symbol.for('Mailer') as ServiceIdentifier<Mailer>,
} as const

export const USE_CASES = Symbol.for('UseCases') as ServiceIdentifier<UseCases>

/**
 * Binds the use cases to the ports (useCasesFor), the same way in the browser and on the
 * server. Decorator-free bindings keep inversify out of application/ and domain/. A test swaps
 * an adapter with `container.rebind(PORTS.…)` before the use cases are first resolved.
 */
export const useCasesModule = new ContainerModule(({ bind }) => {
  bind(USE_CASES)
    .toResolvedValue(
      (news: NewsRepository, mailer: Mailer): UseCases => useCasesFor({ news, mailer }),
      [PORTS.newsRepository, PORTS.mailer],
    )
    .inSingletonScope()
})
