// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react'
import { createMemoryApp } from '../support/memory-app'
import {
  expectFieldError,
  expectNoFieldError,
  fill,
  fillFields,
  findToast,
  itAcceptsEach,
  itShowsEachRefusal,
  renderApp,
} from './support/render-app'

const message = {
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  message: 'Where can I send a story tip?\nThanks.',
}

async function openForm(app = createMemoryApp()) {
  const rendered = renderApp({ app, path: '/contact' })
  await screen.findByRole('button', { name: 'Submit' })
  return {
    ...rendered,
    name: screen.getByLabelText('Name'),
    email: screen.getByLabelText('Email Address'),
    text: screen.getByLabelText('Your Message'),
    submit: screen.getByRole('button', { name: 'Submit' }),
  }
}

async function fillMessage(form: Awaited<ReturnType<typeof openForm>>, values = message) {
  await fill(form.user, form.name, values.name)
  await fill(form.user, form.email, values.email)
  await fill(form.user, form.text, values.message)
}

describe('contact: the form', () => {
  it('shows empty Name, Email Address and Your Message fields and a Submit button', async () => {
    const { name, email, text, submit } = await openForm()

    expect(name).toHaveValue('')
    expect(email).toHaveValue('')
    expect(email).toHaveAttribute('type', 'email')
    expect(text).toHaveValue('')
    expect(text.tagName).toBe('TEXTAREA')
    expect(submit).toBeEnabled()
  })

  it('shows no error before a field is touched, and shows it once the field is left', async () => {
    const { user, name, email, text } = await openForm()

    await fill(user, email, 'ada-at-example')
    expect(screen.queryByText('Invalid email address')).not.toBeInTheDocument()
    expectNoFieldError(name)
    expectNoFieldError(email)
    expectNoFieldError(text)

    await user.tab()

    await expectFieldError(email, 'Invalid email address')
    expectNoFieldError(name)
    expectNoFieldError(text)
  })
})

describe('contact: validation', () => {
  const refused = [
    { field: 'Name', value: '', message: 'Sorry, name is required', as: 'no name' },
    { field: 'Name', value: '   ', message: 'Sorry, name is required', as: 'a name of spaces' },
    {
      field: 'Name',
      value: 'x'.repeat(31),
      message: 'Must be 30 characters or less',
      as: 'a name of 31 characters',
    },
    { field: 'Email Address', value: '', message: 'Sorry, email is required', as: 'no email' },
    {
      field: 'Email Address',
      value: 'ada@',
      message: 'Invalid email address',
      as: 'an address without a domain',
    },
    {
      field: 'Email Address',
      value: 'ada.example.org',
      message: 'Invalid email address',
      as: 'an address without @',
    },
    {
      field: 'Your Message',
      value: '',
      message: 'Sorry, message is required',
      as: 'no message',
    },
    {
      field: 'Your Message',
      value: 'x'.repeat(501),
      message: 'Must be 500 characters or less',
      as: 'a message of 501 characters',
    },
  ]
  itShowsEachRefusal(openForm, refused)

  const accepted = [
    {
      field: 'Name',
      value: 'x'.repeat(30),
      refusedFirst: 'x'.repeat(31),
      refusal: 'Must be 30 characters or less',
      as: 'a name of 30 characters',
    },
    {
      field: 'Email Address',
      value: 'ada.lovelace+news@mail.example.org',
      refusedFirst: 'ada.lovelace+news@mail',
      refusal: 'Invalid email address',
      as: 'a full address',
    },
    {
      field: 'Your Message',
      value: 'x'.repeat(500),
      refusedFirst: 'x'.repeat(501),
      refusal: 'Must be 500 characters or less',
      as: 'a message of 500 characters',
    },
  ]
  itAcceptsEach(openForm, accepted)

  it('sends nothing and shows every error when an empty form is submitted', async () => {
    const app = createMemoryApp()
    const send = vi.spyOn(app.useCases.sendContactMessage, 'execute')
    const { user, name, email, text, submit } = await openForm(app)

    await user.click(submit)

    expect(await screen.findByText('Sorry, name is required')).toBeInTheDocument()
    await expectFieldError(name, 'Sorry, name is required')
    await expectFieldError(email, 'Sorry, email is required')
    await expectFieldError(text, 'Sorry, message is required')
    await waitFor(() => expect(name).toHaveFocus())
    expect(send).not.toHaveBeenCalled()
    expect(app.mailer.sent).toEqual([])
  })

  it('sends nothing when only the email address is wrong, and focuses it', async () => {
    const app = createMemoryApp()
    const send = vi.spyOn(app.useCases.sendContactMessage, 'execute')
    const form = await openForm(app)
    await fillMessage(form, { ...message, email: 'ada@example' })

    await form.user.click(form.submit)

    expect(await screen.findByText('Invalid email address')).toBeInTheDocument()
    await waitFor(() => expect(form.email).toHaveFocus())
    expectNoFieldError(form.name)
    expectNoFieldError(form.text)
    expect(send).not.toHaveBeenCalled()
    expect(app.mailer.sent).toEqual([])
    expect(screen.queryByText('successfully sent the email')).not.toBeInTheDocument()
  })
})

describe('contact: submit', () => {
  it('keeps what was typed and says so when the message cannot be sent', async () => {
    const app = createMemoryApp()
    app.mailer.faults.failOn('send')
    const form = await openForm(app)
    await fillMessage(form)

    await form.user.click(form.submit)

    const toast = await findToast('something went wrong, please try again later')
    expect(toast).toHaveClass('Toastify__toast--error')
    expect(app.mailer.sent).toEqual([])
    expect(form.name).toHaveValue(message.name)
    expect(form.email).toHaveValue(message.email)
    expect(form.text).toHaveValue(message.message)
    await waitFor(() => expect(form.submit).toBeEnabled())
    expect(screen.queryByText('successfully sent the email')).not.toBeInTheDocument()

    app.mailer.faults.recover()
    await form.user.click(form.submit)

    await findToast('successfully sent the email')
    expect(app.mailer.sent).toEqual([message])
  })

  it('asks for one success toast and no navigation after sending', async () => {
    const app = createMemoryApp()
    const showToast = vi.fn()
    const navigate = vi.fn()
    const { user } = renderApp({ app, path: '/contact', effects: { showToast, navigate } })
    await screen.findByRole('button', { name: 'Submit' })
    await fillFields(user, {
      Name: message.name,
      'Email Address': message.email,
      'Your Message': message.message,
    })

    await user.click(screen.getByRole('button', { name: 'Submit' }))

    await waitFor(() => expect(showToast).toHaveBeenCalled())
    expect(showToast).toHaveBeenCalledExactlyOnceWith({
      kind: 'success',
      message: 'successfully sent the email',
    })
    expect(navigate).not.toHaveBeenCalled()
  })
})
