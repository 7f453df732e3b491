import type { ContactMessage } from '@/domain/contact-message.entity'
import type { Mailer } from '@/domain/ports/mailer.port'

/** Records what it is asked to send. Tests make it fail through tests/support's faulty(). */
export class MemoryMailer implements Mailer {
  readonly sent: ContactMessage[] = []

  async send(message: ContactMessage): Promise<void> {
    this.sent.push(message)
  }
}
