import { SqlOutboxMailer } from '@/adapters/outbox/sql-outbox.mailer'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SqlNewsStore } from '@/adapters/sql/news/store'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import {
  buildServerContainer,
  resolveJournal,
  resolveUseCases,
} from '@/composition/server/server.container'
import { TOKENS } from '@/composition/server/server.tokens'

let database: SqlDatabase

beforeAll(async () => {
  database = await openDatabase('sqlite::memory:')
})

afterAll(() => database.close())

describe('the server container', () => {
  it('binds the news port to the journal over the SQL store, and the mailer to the outbox', () => {
    const container = buildServerContainer(database)
    expect(container.get(TOKENS.newsRepository)).toBeInstanceOf(JournaledNewsRepository)
    expect(container.get(TOKENS.newsRepository)).toBe(resolveJournal(container))
    expect(container.get(TOKENS.newsStore)).toBeInstanceOf(SqlNewsStore)
    expect(container.get(TOKENS.mailer)).toBeInstanceOf(SqlOutboxMailer)
    expect(container.get(TOKENS.database)).toBe(database)
  })

  it('gives each use case its ports, one instance per container', async () => {
    const container = buildServerContainer(database)
    const useCases = resolveUseCases(container)
    expect(resolveUseCases(container).listNews).toBe(useCases.listNews)

    const created = await useCases.createNews.execute({ title: 'T', body: 'B', author: 'A' })
    expect(created.ok).toBe(true)
    const listed = await useCases.listNews.execute()
    expect(listed.ok && listed.value.items.map((item) => item.title)).toEqual(['T'])

    const sent = await useCases.sendContactMessage.execute({
      name: 'N',
      email: 'n@example.com',
      message: 'M',
    })
    expect(sent).toEqual({ ok: true, value: undefined })
    expect(await new SqlOutboxMailer(database).count()).toBe(1)
  })

  it('tells the listener about storage failures it reports as Unavailable', async () => {
    const failures: unknown[] = []
    const broken = await openDatabase('sqlite::memory:')
    const useCases = resolveUseCases(
      buildServerContainer(broken, { onStorageError: (error) => failures.push(error) }),
    )
    await broken.close()
    const result = await useCases.listNews.execute()
    expect(result).toEqual({ ok: false, error: { code: 'Unavailable' } })
    expect(failures).toHaveLength(1)
  })
})
