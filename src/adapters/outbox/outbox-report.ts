import type { OutboxMessage } from '@/adapters/outbox/sql-outbox.mailer'

/**
 * The outbox as plain text for a terminal, newest first. Visitors wrote these messages, so
 * control characters (which could drive the terminal) are shown as \u{…} escapes.
 */
export function formatOutbox(messages: readonly OutboxMessage[], total: number): string {
  if (messages.length === 0) return 'The outbox is empty: no contact message has been stored.\n'
  const heading =
    total > messages.length
      ? `Outbox: the ${messages.length} newest of ${total} messages, newest first.`
      : `Outbox: ${total} ${total === 1 ? 'message' : 'messages'}, newest first.`
  return [heading, ...messages.map(formatMessage)].join('\n\n') + '\n'
}

function formatMessage(message: OutboxMessage): string {
  const lines = [
    `#${message.id}  received ${message.receivedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
    `From:     ${clean(message.name)} <${clean(message.email)}>`,
  ]
  if (message.serviceId !== undefined || message.templateId !== undefined) {
    lines.push(`Template: ${clean(message.serviceId ?? '-')} / ${clean(message.templateId ?? '-')}`)
  }
  lines.push('Message:')
  for (const line of clean(message.message, true).split('\n')) lines.push(`  ${line}`)
  return lines.join('\n')
}

function clean(text: string, multiline = false): string {
  const flat = multiline ? text.replace(/\r\n?/g, '\n') : text.replace(/[\r\n]+/g, ' ')
  let out = ''
  for (const char of flat) {
    const code = char.codePointAt(0) ?? 0
    out += isUnsafe(code) ? `\\u{${code.toString(16)}}` : char
  }
  return out
}

/** C0 and C1 controls, DEL, line separators and bidi overrides; tab and line feed are kept. */
function isUnsafe(code: number): boolean {
  if (code === 0x09 || code === 0x0a) return false
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  )
}
