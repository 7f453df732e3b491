import { newsRepositoryContract } from './news-repository.contract'
import { newsStoreContract } from './news-store.contract'
import { sqlDatabaseContract } from './sql-database.contract'
import { POSTGRES_SKIPPED, postgresSchema, sqlStore, TEST_POSTGRES_URL } from './sql-test-stores'

if (TEST_POSTGRES_URL === undefined) console.warn(POSTGRES_SKIPPED)

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  TEST_POSTGRES_URL === undefined ? POSTGRES_SKIPPED : 'SqlNewsStore on PostgreSQL',
  () => {
    const kind = sqlStore(postgresSchema(TEST_POSTGRES_URL ?? ''))
    newsStoreContract(kind)
    newsRepositoryContract(kind)
    sqlDatabaseContract(kind)
  },
)
