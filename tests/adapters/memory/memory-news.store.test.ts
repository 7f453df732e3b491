import { newsRepositoryContract } from '../sql/news-repository.contract'
import { newsStoreContract } from '../sql/news-store.contract'
import { memoryStore } from '../sql/sql-test-stores'

describe('MemoryNewsStore', () => {
  newsStoreContract(memoryStore)
})

describe('JournaledNewsRepository over MemoryNewsStore', () => {
  newsRepositoryContract(memoryStore)
})
