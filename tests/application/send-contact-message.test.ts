import { SendContactMessage } from '@/application/send-contact-message.use-case'
import { MemoryMailer } from '@/adapters/memory/memory.mailer'
import { faulty } from '../support/faulty-port'

const send = (mailer: MemoryMailer, name: string, email: string, message: string) =>
  new SendContactMessage(mailer).execute({ name, email, message })

describe('send contact message', () => {
  it('sends a valid message, trimmed', async () => {
    const mailer = new MemoryMailer()
    const result = await send(mailer, ' Ada ', 'ada@example.com ', 'Hello there')
    expect(result).toEqual({ ok: true, value: undefined })
    expect(mailer.sent).toEqual([{ name: 'Ada', email: 'ada@example.com', message: 'Hello there' }])
  })

  it('sends nothing when the message is invalid', async () => {
    const mailer = new MemoryMailer()
    const result = await send(mailer, '', 'not-an-address', 'Hi')
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'ValidationFailed',
        fields: { name: 'Sorry, name is required', email: 'Invalid email address' },
      },
    })
    expect(mailer.sent).toEqual([])
  })

  it('reports Unavailable when the mailer fails', async () => {
    const mailer = faulty(new MemoryMailer())
    mailer.faults.failOn('send')
    const result = await send(mailer, 'Ada', 'ada@example.com', 'Hi')
    expect(result).toEqual({ ok: false, error: { code: 'Unavailable' } })
  })
})
