import { assertEvent, assign, setup, type AnyEventObject } from 'xstate'
import type { ContactMessage } from '@/domain/contact-message.entity'
import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { checkFields, hasErrors, type FieldErrors } from '@/domain/rules/field-rule'
import { submitState } from '@/ui/shared/item-machine.fragment'
import { effectStubs, fieldErrorsOf, stubUseCase } from '@/ui/shared/machine-effects'
import { NOTICES } from '@/ui/shared/notices'

export interface ContactFormContext {
  readonly message: ContactMessage
  readonly fieldErrors: FieldErrors<string>
}

export type ContactFormEvent = { readonly type: 'contact.submit'; readonly values: ContactMessage }

function invalidFields(event: ContactFormEvent): FieldErrors<string> {
  return checkFields(CONTACT_RULES, event.values)
}

/** The contact form: sends only a valid message (docs/spec-deviations.md, decision 2). */
export const contactFormMachine = setup({
  types: {
    context: {} as ContactFormContext,
    events: {} as ContactFormEvent,
  },
  actors: {
    sendContactMessage: stubUseCase<void, ContactMessage>(),
  },
  actions: {
    ...effectStubs,
    resetForm: (): void => undefined,
    /** The message was sent: forget its draft. */
    clearDraft: (): void => undefined,
  },
  guards: {
    isValid: ({ event }) => {
      assertEvent(event, 'contact.submit')
      return !hasErrors(invalidFields(event))
    },
  },
}).createMachine({
  id: 'contactForm',
  context: { message: { name: '', email: '', message: '' }, fieldErrors: {} },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'contact.submit': [
          {
            guard: 'isValid',
            target: 'sending',
            actions: assign({ message: ({ event }) => event.values, fieldErrors: {} }),
          },
          { actions: assign({ fieldErrors: ({ event }) => invalidFields(event) }) },
        ],
      },
    },
    sending: submitState({
      src: 'sendContactMessage',
      input: ({ context }: { readonly context: ContactFormContext }) => context.message,
      done: {
        target: 'editing',
        actions: [
          { type: 'showToast', params: { kind: 'success', message: NOTICES.contactSent } },
          'clearDraft',
          'resetForm',
        ],
      },
      failed: 'editing',
      failureMessage: NOTICES.tryAgainLater,
      onFailure: [
        assign({
          fieldErrors: ({ event }: { readonly event: AnyEventObject }) =>
            fieldErrorsOf(event.error),
        }),
      ],
    }),
  },
})
