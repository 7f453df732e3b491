import { openDatabase } from '@/adapters/sql/database'
import {
  MAX_OUTBOX_LIST_SIZE,
  SqlOutboxMailer,
  type SqlOutboxOptions,
} from '@/adapters/outbox/sql-outbox.mailer'
import type { ContactMessage } from '@/domain/contact-message.entity'
import { unavailable } from '@/domain/domain-error'
import { ALL_STORE_KINDS, POSTGRES_SKIPPED, TEST_POSTGRES_URL } from '../../support/test-databases'

const message: ContactMessage = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello,\nplease cover the harbour story.',
}

const START = Date.UTC(2026, 2, 1, 12, 0, 0, 250)

if (TEST_POSTGRES_URL === undefined) console.warn(POSTGRES_SKIPPED)

describe.each(ALL_STORE_KINDS)('SqlOutboxMailer on $name', (engine) => {
  const cleanups: Array<() => Promise<void>> = []

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function open(options: SqlOutboxOptions = {}) {
    const store = await engine.create()
    cleanups.push(() => store.dispose())
    const database = await openDatabase(store.url)
    cleanups.push(() => database.close())
    return { store, database, outbox: new SqlOutboxMailer(database, options) }
  }

  it('stores a message and lists it with the time it arrived', async () => {
    const { outbox } = await open({ now: () => new Date(START) })
    await outbox.send(message)
    const [stored, ...rest] = await outbox.list()
    expect(rest).toEqual([])
    expect(stored).toEqual({ id: stored?.id, ...message, receivedAt: '2026-03-01T12:00:00.250Z' })
    expect(await outbox.count()).toBe(1)
  })

  it('keeps the EmailJS service and template ids when it is given them', async () => {
    const { outbox } = await open()
    await outbox.send(message, { serviceId: 'service_x', templateId: 'template_y' })
    expect(await outbox.list()).toEqual([
      expect.objectContaining({ serviceId: 'service_x', templateId: 'template_y' }),
    ])
  })

  it('stores only the name, e-mail and message of what it is sent', async () => {
    const { outbox } = await open()
    const withExtra = { ...message, password: 'hunter2' }
    await outbox.send(withExtra)
    expect(JSON.stringify(await outbox.list())).not.toContain('hunter2')
  })

  it('lists the newest first, even for messages that arrive in one millisecond', async () => {
    const { outbox } = await open({ now: () => new Date(START) })
    for (const name of ['first', 'second', 'third']) await outbox.send({ ...message, name })
    expect((await outbox.list()).map((stored) => stored.name)).toEqual(['third', 'second', 'first'])
  })

  it(`bounds the list to 1..${MAX_OUTBOX_LIST_SIZE} messages`, async () => {
    const { outbox } = await open()
    for (let index = 0; index < 3; index += 1) await outbox.send(message)
    expect(await outbox.list(2)).toHaveLength(2)
    expect(await outbox.list(0)).toHaveLength(1)
    expect(await outbox.list(Number.NaN)).toHaveLength(3)
    expect(await outbox.count()).toBe(3)
  })

  it('reports Unavailable, with no SQL detail, when the database fails', async () => {
    const failures: unknown[] = []
    const { database, outbox } = await open({ onError: (error) => failures.push(error) })
    await database.close()
    const expected = unavailable()
    await expect(outbox.send(message)).rejects.toEqual(expected)
    await expect(outbox.list()).rejects.toEqual(expected)
    await expect(outbox.count()).rejects.toEqual(expected)
    expect(failures).toHaveLength(3)
  })
})

if (TEST_POSTGRES_URL === undefined) {
  describe(POSTGRES_SKIPPED, () => {
    it.skip('SqlOutboxMailer on PostgreSQL', () => undefined)
  })
}
