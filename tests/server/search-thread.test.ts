import SQLite from 'better-sqlite3'
import type { NewsItem } from '@/domain/news-item.entity'
import { SQLITE_SEARCH_TABLE } from '@/adapters/sql/news-search.sql'
import { createPostThroughApi, tempDir, useServer } from './server-fixture'

const { server } = useServer({ database: { url: `sqlite:${tempDir('newswire-db-')}/news.db` } })

beforeAll(async () => {
  await createPostThroughApi(server, 'Harbour lights return', { body: 'The harbour is lit.' })
})

describe('searching a SQLite file', () => {
  it('reads the index on a thread of its own, never on the server’s thread', async () => {
    const prepared: string[] = []
    const prepare = SQLite.prototype.prepare
    const spy = vi.spyOn(SQLite.prototype, 'prepare').mockImplementation(function (
      this: SQLite.Database,
      source: string,
    ) {
      prepared.push(source)
      return prepare.call(this, source)
    })
    try {
      const response = await server.app.inject('/api/news?q=HARBOUR')
      expect(response.statusCode).toBe(200)
      expect(response.json<NewsItem[]>().map((item) => item.title)).toEqual([
        'Harbour lights return',
      ])
    } finally {
      spy.mockRestore()
    }
    expect(prepared.filter((source) => source.includes(SQLITE_SEARCH_TABLE))).toEqual([])
  })
})
