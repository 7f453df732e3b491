// @vitest-environment jsdom
import { screen } from '@testing-library/react'
import type { ContactMessage } from '@/domain/contact-message.entity'
import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { checkFields } from '@/domain/rules/field-rule'
import { NOTICES } from '@/ui/shared/notices'
import { payload } from '../model/model-harness'
import { contactFormModel, EMPTY_MESSAGE, VALID_MESSAGE } from '../model/models'
import { expectNoFieldError, findToast } from './support/render-app'
import {
  describeScreenPaths,
  retypeAll,
  type ScreenDriver,
  seeToast,
  seeValues,
} from './support/screen-paths'

const FIELDS = { name: 'Name', email: 'Email Address', message: 'Your Message' } as const
/** As for the news form: the browser refuses an invalid message before the machine sees it. */
const REFUSED_IN_THE_BROWSER = ['contactForm.editing on contact.submit #2']

const driver: ScreenDriver = {
  open: () => ({ url: '/contact', seed: [] }),
  act: {
    'contact.submit': async ({ event, screen: { user } }) => {
      await retypeAll(user, FIELDS, payload<ContactMessage>(event, 'values'))
      await user.click(screen.getByRole('button', { name: 'Submit' }))
    },
  },
  see: {
    editing: async ({ event, screen: { app } }) => {
      expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled()
      if (event.type === 'contact.submit') {
        const values = payload<ContactMessage>(event, 'values')
        for (const message of Object.values(checkFields(CONTACT_RULES, values))) {
          expect(await screen.findByText(message)).toBeInTheDocument()
        }
      } else if (event.type.startsWith('xstate.done.')) {
        expect(await findToast(NOTICES.contactSent)).toHaveClass('Toastify__toast--success')
        expect(screen.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible()
        for (const label of Object.values(FIELDS)) expectNoFieldError(screen.getByLabelText(label))
        expect(app.mailer.sent).toEqual([VALID_MESSAGE])
        seeValues(FIELDS, EMPTY_MESSAGE)
      } else if (event.type.startsWith('xstate.error.')) {
        await seeToast(NOTICES.tryAgainLater)
        expect(app.mailer.sent).toEqual([])
        seeValues(FIELDS, VALID_MESSAGE)
      } else {
        seeValues(FIELDS, EMPTY_MESSAGE)
      }
    },
    sending: async ({ screen: { app } }) => {
      expect(app.mailer.sent).toEqual([])
      expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled()
    },
  },
}

describeScreenPaths(
  'contact: shows what each state of its machine means, along every path',
  contactFormModel,
  driver,
  {
    covers: 'reaches every state, and every transition a valid form can take, through the screen',
    missed: { transitions: REFUSED_IN_THE_BROWSER },
  },
)
