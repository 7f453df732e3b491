import type { ContactMessage } from '@/domain/contact-message.entity'
import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { checkFields } from '@/domain/rules/field-rule'
import { provideContactForm } from '@/ui/features/contact/contact-form.provide'
import type { DomainError } from '@/domain/domain-error'
import { NOTICES } from '@/ui/shared/notices'
import {
  describeModelPaths,
  expectFormKept,
  expectFormSent,
  formEffects,
  pendingArgs,
  type StateChecks,
} from './machine-rig'
import { payload } from './model-harness'
import { contactFormModel, VALID_MESSAGE } from './models'

const checks: StateChecks = {
  editing: ({ event, snapshot, rig, effects }) => {
    // The contact form never leaves its page.
    expect(effects.navigations).toEqual([])
    if (event.type === 'contact.submit') {
      // Refused: each field says what is wrong, and nothing is sent.
      const values = payload<ContactMessage>(event, 'values')
      expect(snapshot.context.fieldErrors).toEqual(checkFields(CONTACT_RULES, values))
      expect(rig.mail.pending('send')).toEqual([])
      expect(effects.toasts).toEqual([])
    } else if (event.type.startsWith('xstate.done.')) {
      expectFormSent(effects, NOTICES.contactSent)
    } else if (event.type.startsWith('xstate.error.')) {
      expectFormKept(effects, payload<DomainError>(event, 'error'), NOTICES.tryAgainLater)
      expect(snapshot.context.message).toEqual(VALID_MESSAGE)
    }
  },
  sending: ({ snapshot, rig }) => {
    expect(pendingArgs(rig.mail, 'send')).toEqual([[VALID_MESSAGE]])
    expect(snapshot.context.fieldErrors).toEqual({})
  },
}

describeModelPaths(
  'contact form machine, model-based',
  contactFormModel,
  (services, rig) => provideContactForm(services).provide(formEffects(rig)),
  { checks },
)
