import { Container, ContainerModule } from 'inversify'
import type { UseCases } from '@/application/use-cases'
import { SqlOutboxMailer } from '@/adapters/outbox/sql-outbox.mailer'
import type { SqlDatabase } from '@/adapters/sql/database'
import { SqlNewsRepository } from '@/adapters/sql/sql-news.repository'
import type { StorageErrorListener } from '@/adapters/sql/storage-failure'
import { USE_CASES, useCasesModule } from '@/composition/core.module'
import { TOKENS } from '@/composition/server/server.tokens'

/**
 * The server's composition root: which adapter fills which port (the use cases are bound to
 * their ports by the shared `useCasesModule`). Posts live in the
 * SQL database; contact messages go to the outbox in the same database (the browser talks to
 * EmailJS itself when an account is set, so the server never sends mail).
 */
export const sqlAdaptersModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.newsRepository)
    .toResolvedValue(
      (database: SqlDatabase, onError: StorageErrorListener) =>
        new SqlNewsRepository(database, { onError }),
      [TOKENS.database, TOKENS.storageErrors],
    )
    .inSingletonScope()
  bind(TOKENS.mailer)
    .toResolvedValue(
      (database: SqlDatabase, onError: StorageErrorListener) =>
        new SqlOutboxMailer(database, { onError }),
      [TOKENS.database, TOKENS.storageErrors],
    )
    .inSingletonScope()
})

export interface ServerContainerOptions {
  /** Told about each storage failure the adapters turn into Unavailable (e.g. to log it). */
  readonly onStorageError?: StorageErrorListener
}

/** A container over an open database. Use cases resolve as singletons (they hold no state). */
export function buildServerContainer(
  database: SqlDatabase,
  options: ServerContainerOptions = {},
): Container {
  const container = new Container({ defaultScope: 'Singleton' })
  container.bind(TOKENS.database).toConstantValue(database)
  container.bind(TOKENS.storageErrors).toConstantValue(options.onStorageError ?? (() => undefined))
  container.load(sqlAdaptersModule, useCasesModule)
  return container
}

export function resolveUseCases(container: Container): UseCases {
  return container.get(USE_CASES)
}
