import type { ContactMessage } from '@/domain/contact-message.entity'

/** Delivers a contact message. Rejects with the Unavailable DomainError when it cannot. */
export interface Mailer {
  send(message: ContactMessage): Promise<void>
}
