import { newsRepositoryContract } from './news-repository.contract'
import { newsStoreContract } from './news-store.contract'
import { sqlDatabaseContract } from './sql-database.contract'
import { sqliteFile, sqliteMemory, sqlStore } from './sql-test-stores'

for (const kind of [sqliteFile, sqliteMemory]) {
  describe(`SqlNewsStore on SQLite, ${kind === sqliteFile ? 'a file in the temp folder' : ':memory:'}`, () => {
    newsStoreContract(sqlStore(kind))
    newsRepositoryContract(sqlStore(kind))
    sqlDatabaseContract(sqlStore(kind))
  })
}
