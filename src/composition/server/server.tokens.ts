import type { ServiceIdentifier } from 'inversify'
import type { ChangeFeed } from '@/application/change-feed'
import type { JournaledNewsRepository } from '@/application/journaled-news.repository'
import type { SqlDatabase } from '@/adapters/sql/database'
import type { QueryReader } from '@/adapters/sql/sqlite-search-thread'
import type { StorageErrorListener } from '@/adapters/sql/storage-failure'
import { PORTS } from '@/composition/core.module'
import type { NewsChangeLog } from '@/application/ports/change-log.port'
import type { ChangeSignal } from '@/application/ports/change-signal.port'
import type { NewsStore } from '@/domain/ports/news-store.port'
import type { StreamLeases } from '@/application/ports/stream-leases.port'

/** The server container's service identifiers: the shared ports, and what the SQL adapters need. */
export const TOKENS = {
  ...PORTS,
  database: Symbol.for('newswire.server.SqlDatabase') as ServiceIdentifier<SqlDatabase>,
  storageErrors: Symbol.for(
    'newswire.server.StorageErrorListener',
  ) as ServiceIdentifier<StorageErrorListener>,
  /** Posts, histories and idempotency keys in the database (SqlNewsStore). */
  newsStore: Symbol.for('newswire.server.NewsStore') as ServiceIdentifier<NewsStore>,
  /** Where the store reads searches: a thread of their own for a SQLite file. */
  searchReader: Symbol.for('newswire.server.SearchReader') as ServiceIdentifier<QueryReader>,
  /** The change log and signal that the store's transactions write (SqlChangeLog). */
  changeLog: Symbol.for('newswire.server.NewsChangeLog') as ServiceIdentifier<NewsChangeLog>,
  /** The database's change signal, which every server reads alike. */
  changeSignal: Symbol.for('newswire.server.ChangeSignal') as ServiceIdentifier<ChangeSignal>,
  /** The live stream's reads of the store's change log. */
  changeFeed: Symbol.for('newswire.server.ChangeFeed') as ServiceIdentifier<ChangeFeed>,
  /** The live streams' leases in the database, so that the cap per client spans every server. */
  streamLeases: Symbol.for('newswire.server.StreamLeases') as ServiceIdentifier<StreamLeases>,
  /**
   * The journal over the store: the same instance as PORTS.newsRepository, with the server's
   * own operations (purge) besides the port's.
   */
  journal: Symbol.for(
    'newswire.server.JournaledNewsRepository',
  ) as ServiceIdentifier<JournaledNewsRepository>,
} as const
