import type { ContactMessage } from '@/domain/contact-message.entity'
import type { Mailer } from '@/domain/ports/mailer.port'
import { Faults } from '@/adapters/memory/faults'

/** Records what it is asked to send. */
export class MemoryMailer implements Mailer {
  readonly sent: ContactMessage[] = []
  readonly faults = new Faults<'send'>()

  async send(message: ContactMessage): Promise<void> {
    await this.faults.enter('send')
    this.sent.push(message)
  }
}
