/**
 * The news port's contracts, each run on every store NewsWire has: in memory, SQLite (a file,
 * and :memory:) and PostgreSQL when TEST_POSTGRES_URL is set. A store or a port method is
 * added here once, and every engine is held to it.
 */
import { memoryStore, sqlStore, type NewsStoreKind } from '../support/news-stores'
import {
  POSTGRES_SKIPPED,
  postgresSchema,
  sqliteFile,
  sqliteMemory,
  TEST_POSTGRES_URL,
} from '../support/test-databases'
import { newsRepositoryContract } from './news-repository.contract'
import { newsStoreContract } from './news-store.contract'
import { recentChangesContract } from './recent-changes.contract'
import { sqlDatabaseContract } from './sql-database.contract'

if (TEST_POSTGRES_URL === undefined) console.warn(POSTGRES_SKIPPED)

const kinds: ReadonlyArray<{ readonly label: string; readonly kind: NewsStoreKind }> = [
  { label: 'MemoryNewsStore', kind: memoryStore },
  { label: 'SqlNewsStore on SQLite, a file in the temp folder', kind: sqlStore(sqliteFile) },
  { label: 'SqlNewsStore on SQLite, :memory:', kind: sqlStore(sqliteMemory) },
  ...(TEST_POSTGRES_URL === undefined
    ? []
    : [{ label: 'SqlNewsStore on PostgreSQL', kind: sqlStore(postgresSchema(TEST_POSTGRES_URL)) }]),
]

describe.each(kinds)('$label', ({ kind }) => {
  newsStoreContract(kind)
  newsRepositoryContract(kind)
  recentChangesContract(kind)
  if (kind.engine !== 'memory') sqlDatabaseContract(kind)
})
