import { validationFailed } from '@/domain/domain-error'
import type { ContactMessage } from '@/domain/contact-message.entity'
import type { Mailer } from '@/domain/ports/mailer.port'
import { attempt, fail, type Result } from '@/domain/result'
import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { checkFields, hasErrors } from '@/domain/rules/field-rule'

export class SendContactMessage {
  constructor(private readonly mailer: Mailer) {}

  async execute(message: ContactMessage): Promise<Result<void>> {
    const errors = checkFields(CONTACT_RULES, message)
    if (hasErrors(errors)) return fail(validationFailed(errors))
    return attempt(() =>
      this.mailer.send({
        name: message.name.trim(),
        email: message.email.trim(),
        message: message.message.trim(),
      }),
    )
  }
}
