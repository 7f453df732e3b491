import { formatOutbox } from '@/adapters/outbox/outbox-report'
import type { OutboxMessage } from '@/adapters/outbox/sql-outbox.mailer'

const stored: OutboxMessage = {
  id: 7,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello,\nplease cover the harbour story.',
  receivedAt: '2026-03-01T12:00:00.250Z',
}

describe('the outbox as text', () => {
  it('says plainly when there are no messages', () => {
    expect(formatOutbox([], 0)).toBe('The outbox is empty: no contact message has been stored.\n')
  })

  it('prints each message with its sender, time and indented body', () => {
    expect(formatOutbox([stored], 1)).toBe(
      [
        'Outbox: 1 message, newest first.',
        '',
        '#7  received 2026-03-01 12:00:00 UTC',
        'From:     Ada Lovelace <ada@example.com>',
        'Message:',
        '  Hello,',
        '  please cover the harbour story.',
        '',
      ].join('\n'),
    )
  })

  it('names the EmailJS service and template when the message came with them', () => {
    const text = formatOutbox([{ ...stored, serviceId: 'service_x', templateId: 'template_y' }], 1)
    expect(text).toContain('Template: service_x / template_y')
  })

  it('says how many it leaves out when it shows only the newest', () => {
    const text = formatOutbox([stored, { ...stored, id: 6 }], 40)
    expect(text.split('\n')[0]).toBe('Outbox: the 2 newest of 40 messages, newest first.')
    expect(text.indexOf('#7')).toBeLessThan(text.indexOf('#6'))
  })

  it('shows control characters a visitor typed as escapes, so they cannot drive the terminal', () => {
    const text = formatOutbox(
      [{ ...stored, name: 'Eve\u001b[2J', message: 'line\r\nnext\u0007 \u202eevil' }],
      1,
    )
    for (const raw of ['\u0007', '\u001b', '\r', '\u202e']) expect(text).not.toContain(raw)
    expect(text).toContain('Eve\\u{1b}[2J')
    expect(text).toContain('  line\n  next\\u{7} \\u{202e}evil')
  })
})
