import { Container, ContainerModule } from 'inversify'
import { ChangeFeed } from '@/application/change-feed'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { UndoChangesSince } from '@/application/undo-changes.use-case'
import type { UseCases } from '@/application/use-cases'
import { SqlOutboxMailer } from '@/adapters/outbox/sql-outbox.mailer'
import type { SqlDatabase } from '@/adapters/sql/database'
import { SqlChangeLog } from '@/adapters/sql/news/change-log'
import { SqlNewsStore } from '@/adapters/sql/news/store'
import { readerOf, SqliteSearchThread, type QueryReader } from '@/adapters/sql/sqlite-search-thread'
import { SqliteChangeSignal } from '@/adapters/sql/sqlite-change.signal'
import { SqlStreamLeases } from '@/adapters/sql/sql-stream-leases'
import type { StorageErrorListener } from '@/adapters/sql/storage-failure'
import { USE_CASES, useCasesModule } from '@/composition/core.module'
import { TOKENS } from '@/composition/server/server.tokens'
import type { NewsChangeLog } from '@/application/ports/change-log.port'
import type { ChangeSignal } from '@/application/ports/change-signal.port'
import type { NewsStore } from '@/domain/ports/news-store.port'
import type { StreamLeases } from '@/application/ports/stream-leases.port'

/**
 * The server's composition root: which adapter fills which port (the use cases are bound to
 * their ports by the shared `useCasesModule`). Posts, with their histories, live in the
 * SQL database, and the journal records every change in the same transaction as the change;
 * contact messages go to the outbox in the same database (the browser talks to EmailJS itself
 * when an account is set, so the server never sends mail).
 */
export const sqlAdaptersModule = new ContainerModule(({ bind }) => {
  // A SQLite file's searches are read on a thread of their own, so that the costliest never hold
  // the event loop; PostgreSQL reads them on its own server, and :memory: has one connection.
  bind(TOKENS.searchReader)
    .toResolvedValue(
      (database: SqlDatabase): QueryReader | SqliteSearchThread => {
        const file = sqliteFileOf(database)
        return file === undefined
          ? readerOf(async (query) => (await database.db.executeQuery(query)).rows)
          : new SqliteSearchThread(file, undefined, database.onStatement)
      },
      [TOKENS.database],
    )
    .inSingletonScope()
    .onDeactivation((reader) => {
      // The thread stops at once; its end is not waited for, as the container unbinds in step.
      if (reader instanceof SqliteSearchThread) void reader.close()
    })
  bind(TOKENS.newsStore)
    .toResolvedValue(
      (database: SqlDatabase, onError: StorageErrorListener, searchReader: QueryReader) =>
        new SqlNewsStore(database, { onError, searchReader }),
      [TOKENS.database, TOKENS.storageErrors, TOKENS.searchReader],
    )
    .inSingletonScope()
  // The store writes the log and raises the signal inside each write's transaction.
  bind(TOKENS.changeLog)
    .toResolvedValue(
      (database: SqlDatabase, onError: StorageErrorListener) =>
        new SqlChangeLog(database.db, onError),
      [TOKENS.database, TOKENS.storageErrors],
    )
    .inSingletonScope()
  // A SQLite file is asked on a connection of its own, several times cheaper per cached read;
  // PostgreSQL and :memory: ask the change log.
  bind(TOKENS.changeSignal)
    .toResolvedValue(
      (database: SqlDatabase, log: NewsChangeLog, onError: StorageErrorListener): ChangeSignal => {
        const file = sqliteFileOf(database)
        return file === undefined ? log : new SqliteChangeSignal(file, onError)
      },
      [TOKENS.database, TOKENS.changeLog, TOKENS.storageErrors],
    )
    .inSingletonScope()
    .onDeactivation((signal) => {
      if (signal instanceof SqliteChangeSignal) signal.close()
    })
  bind(TOKENS.journal)
    .toResolvedValue((store: NewsStore) => new JournaledNewsRepository(store), [TOKENS.newsStore])
    .inSingletonScope()
  // The live stream reads the change log the store writes in each write's transaction.
  bind(TOKENS.changeFeed)
    .toResolvedValue((log: NewsChangeLog) => new ChangeFeed(log), [TOKENS.changeLog])
    .inSingletonScope()
  bind(TOKENS.streamLeases)
    .toResolvedValue(
      (database: SqlDatabase, onError: StorageErrorListener) =>
        new SqlStreamLeases(database, { onError }),
      [TOKENS.database, TOKENS.storageErrors],
    )
    .inSingletonScope()
  bind(TOKENS.newsRepository).toService(TOKENS.journal)
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

/** What the server checks what it keeps in memory against (the cached first page). */
export function resolveChangeSignal(container: Container): ChangeSignal {
  return container.get(TOKENS.changeSignal)
}

/** The live stream's reads, and the leases that count its streams per client across servers. */
export function resolveLiveStream(container: Container): {
  readonly changeFeed: ChangeFeed
  readonly streamLeases: StreamLeases
} {
  return {
    changeFeed: container.get(TOKENS.changeFeed),
    streamLeases: container.get(TOKENS.streamLeases),
  }
}

/** Releases what the container opened beside the database (the change signal's connection). */
export async function closeServerContainer(container: Container): Promise<void> {
  await container.unbindAll()
}

/** The path of a SQLite file database; undefined for PostgreSQL and for :memory:. */
function sqliteFileOf(database: SqlDatabase): string | undefined {
  const { target } = database
  return target.engine === 'sqlite' && target.path !== ':memory:' ? target.path : undefined
}

/** The journal over the database: the NewsRepository the use cases get, and its purge. */
export function resolveJournal(container: Container): JournaledNewsRepository {
  return container.get(TOKENS.journal)
}

/** The operator's undo (`npm run news -- restore --since …`), over the same store and journal. */
export function resolveUndoChangesSince(container: Container): UndoChangesSince {
  return new UndoChangesSince(container.get(TOKENS.newsStore), container.get(TOKENS.journal))
}
