import type { ContactField } from '@/domain/contact-message.entity'
import { textField, type RuleSet } from '@/domain/rules/field-rule'

export const CONTACT_LIMITS = { name: 30, email: 254, message: 500 } as const

const INVALID_EMAIL = 'Invalid email address'

/** The spec's section 5, contact form, with no control characters (see docs/spec-deviations.md). */
export const CONTACT_RULES: RuleSet<ContactField> = {
  name: textField('name', CONTACT_LIMITS.name, 'one'),
  email: {
    ...textField('email', CONTACT_LIMITS.email, 'one', INVALID_EMAIL),
    email: INVALID_EMAIL,
    characters: { lines: 'one', message: INVALID_EMAIL },
  },
  message: textField('message', CONTACT_LIMITS.message, 'many'),
}
