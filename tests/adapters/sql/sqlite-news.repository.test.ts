import { newsRepositoryContract } from './news-repository.contract'
import { sqliteFile, sqliteMemory } from './sql-test-stores'

describe('SqlNewsRepository on SQLite, a file in the temp folder', () => {
  newsRepositoryContract(sqliteFile)
})

describe('SqlNewsRepository on SQLite, :memory:', () => {
  newsRepositoryContract(sqliteMemory)
})
