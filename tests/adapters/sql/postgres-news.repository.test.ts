import { newsRepositoryContract } from './news-repository.contract'
import { POSTGRES_SKIPPED, postgresSchema, TEST_POSTGRES_URL } from './sql-test-stores'

if (TEST_POSTGRES_URL === undefined) console.warn(POSTGRES_SKIPPED)

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  TEST_POSTGRES_URL === undefined ? POSTGRES_SKIPPED : 'SqlNewsRepository on PostgreSQL',
  () => {
    newsRepositoryContract(postgresSchema(TEST_POSTGRES_URL ?? ''))
  },
)
