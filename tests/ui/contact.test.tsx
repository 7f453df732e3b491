// @vitest-environment jsdom
import { screen } from '@testing-library/react'
import type { UserEvent } from '@testing-library/user-event'
import { createMemoryApp } from '../support/memory-app'
import {
  expectNoFieldError,
  expectRefused,
  fillFields,
  itAcceptsEach,
  itRefusesAnEmptyForm,
  itShowsAnErrorOnceTheFieldIsLeft,
  itShowsEachRefusal,
  openForm,
} from './support/render-app'

const message = {
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  message: 'Where can I send a story tip?\nThanks.',
}
const LABELS = { name: 'Name', email: 'Email Address', text: 'Your Message' } as const

const openContactForm = (app = createMemoryApp()) =>
  openForm({ app, path: '/contact' }, 'Submit', LABELS)

/** Fills the form as a paste into each field. */
async function fillMessage(user: UserEvent, values = message) {
  await fillFields(user, {
    [LABELS.name]: values.name,
    [LABELS.email]: values.email,
    [LABELS.text]: values.message,
  })
}

describe('contact: the form', () => {
  it('shows empty Name, Email Address and Your Message fields and a Submit button', async () => {
    const { name, email, text, submit } = await openContactForm()

    expect(name).toHaveValue('')
    expect(email).toHaveValue('')
    expect(email).toHaveAttribute('type', 'email')
    expect(text).toHaveValue('')
    expect(text.tagName).toBe('TEXTAREA')
    expect(submit).toBeEnabled()
  })

  itShowsAnErrorOnceTheFieldIsLeft(openContactForm, 'Email Address', [
    'ada-at-example',
    'Invalid email address',
  ])
})

describe('contact: validation', () => {
  itShowsEachRefusal(openContactForm, {
    Name: {
      'no name': ['', 'Sorry, name is required'],
      'a name of spaces': ['   ', 'Sorry, name is required'],
      'a name of 31 characters': ['x'.repeat(31), 'Must be 30 characters or less'],
    },
    'Email Address': {
      'no email': ['', 'Sorry, email is required'],
      'an address without a domain': ['ada@', 'Invalid email address'],
      'an address without @': ['ada.example.org', 'Invalid email address'],
    },
    'Your Message': {
      'no message': ['', 'Sorry, message is required'],
      'a message of 501 characters': ['x'.repeat(501), 'Must be 500 characters or less'],
    },
  })

  itAcceptsEach(openContactForm, {
    Name: {
      'a name of 30 characters': ['x'.repeat(30), 'x'.repeat(31), 'Must be 30 characters or less'],
    },
    'Email Address': {
      'a full address': [
        'ada.lovelace+news@mail.example.org',
        'ada.lovelace+news@mail',
        'Invalid email address',
      ],
    },
    'Your Message': {
      'a message of 500 characters': [
        'x'.repeat(500),
        'x'.repeat(501),
        'Must be 500 characters or less',
      ],
    },
  })

  itRefusesAnEmptyForm(openContactForm, {
    Name: 'Sorry, name is required',
    'Email Address': 'Sorry, email is required',
    'Your Message': 'Sorry, message is required',
  })

  it('sends nothing when only the email address is wrong, and focuses it', async () => {
    const app = createMemoryApp()
    const send = vi.spyOn(app.useCases.sendContactMessage, 'execute')
    const form = await openContactForm(app)
    await fillMessage(form.user, { ...message, email: 'ada@example' })

    await form.user.click(form.submit)

    await expectRefused([form.email, 'Invalid email address'])
    expectNoFieldError(form.name)
    expectNoFieldError(form.text)
    expect(send).not.toHaveBeenCalled()
    expect(app.mailer.sent).toEqual([])
    expect(screen.queryByText('successfully sent the email')).not.toBeInTheDocument()
  })
})
