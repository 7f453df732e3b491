import type { ContactField } from '@/domain/contact-message.entity'
import { mustBeAtMost, noControlCharacters, type RuleSet } from '@/domain/rules/field-rule'

export const CONTACT_LIMITS = { name: 30, email: 254, message: 500 } as const

const INVALID_EMAIL = 'Invalid email address'

/** The spec's section 5, contact form, with no control characters (see docs/spec-deviations.md). */
export const CONTACT_RULES: RuleSet<ContactField> = {
  name: {
    required: 'Sorry, name is required',
    maxLength: { limit: CONTACT_LIMITS.name, message: mustBeAtMost(CONTACT_LIMITS.name) },
    characters: { lines: 'one', message: noControlCharacters('name') },
  },
  email: {
    required: 'Sorry, email is required',
    email: INVALID_EMAIL,
    maxLength: { limit: CONTACT_LIMITS.email, message: INVALID_EMAIL },
    characters: { lines: 'one', message: INVALID_EMAIL },
  },
  message: {
    required: 'Sorry, message is required',
    maxLength: { limit: CONTACT_LIMITS.message, message: mustBeAtMost(CONTACT_LIMITS.message) },
    characters: { lines: 'many', message: noControlCharacters('message') },
  },
}
