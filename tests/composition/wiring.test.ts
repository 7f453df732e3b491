import { MemoryMailer } from '@/adapters/memory/memory.mailer'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { PORTS } from '@/composition/core.module'
import { buildServerContainer, resolveUseCases } from '@/composition/server/server.container'
import { faulty } from '../support/faulty-port'

const message = { name: 'Ada', email: 'ada@example.com', message: 'Hello' }

let database: SqlDatabase
beforeAll(async () => {
  database = await openDatabase('sqlite::memory:')
})
afterAll(() => database.close())

describe('one way to wire the core', () => {
  it('lets a test swap an adapter of the server container with rebind', async () => {
    const container = buildServerContainer(database)
    const mailer = faulty(new MemoryMailer())
    container.rebind(PORTS.mailer).toConstantValue(mailer)
    const { sendContactMessage } = resolveUseCases(container)

    expect(await sendContactMessage.execute(message)).toEqual({ ok: true, value: undefined })
    mailer.faults.failOn('send')
    expect(await sendContactMessage.execute(message)).toEqual({
      ok: false,
      error: { code: 'Unavailable' },
    })
    expect(mailer.sent).toEqual([message])
  })
})
