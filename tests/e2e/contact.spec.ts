import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { type EmailJsStandIn, SEND_FORM_PATH } from './support/emailjs-stand-in'
import { expect, test } from './support/fixtures'
import {
  type Contact,
  contactForm,
  expectFieldMessage,
  expectFieldValues,
  expectRequiredUpTo,
  expectTooLongThenRequired,
  fieldErrors,
  openUntouched,
  sendContact,
} from './support/forms'
import { REPO_ROOT } from './support/paths'
import { CONTACT_MESSAGES, TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

const ada: Contact = {
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  message: 'Hello newsroom,\nI have a story about engines.',
}

const SEND_FORM = /\/api\/v1\.0\/email\/send-form$/

/** The version of @emailjs/browser the app ships, which the SDK reports as lib_version. */
function emailJsVersion(): string {
  const manifest = join(REPO_ROOT, 'node_modules', '@emailjs', 'browser', 'package.json')
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
}

test.describe('the contact form, sent through EmailJS', () => {
  test("sends the SDK's multipart request field by field, then confirms and resets the form", async ({
    page,
    emailJs,
    newsWire,
  }) => {
    await page.goto('/contact')

    await sendContact(page, ada)

    await expect(toast(page, 'success', TOASTS.contactSent)).toBeVisible()
    await expectFieldValues(contactForm(page), { name: '', email: '', message: '' })
    await expect.poll(() => emailJs.received).toHaveLength(1)
    const [sent] = emailJs.received
    expect(sent?.method).toBe('POST')
    expect(sent?.path).toBe(SEND_FORM_PATH)
    expect(sent?.contentType).toMatch(/^multipart\/form-data; boundary=/)
    expect(sent?.origin).toBe(newsWire.origin)
    const { account } = emailJs
    expect(sent?.fields).toEqual({
      lib_version: emailJsVersion(),
      service_id: account.serviceId,
      template_id: account.templateId,
      user_id: account.publicKey,
      name: ada.name,
      email: ada.email,
      // Multipart carries line breaks as CRLF; what matters is that they arrive.
      message: ada.message.replace(/\n/g, '\r\n'),
    })
  })

  const failures = [
    {
      how: 'fails',
      answered: [500],
      fail: (page: Page, emailJs: EmailJsStandIn) =>
        emailJs.failNext(500, 'The service is temporarily unavailable'),
    },
    {
      how: 'cannot be reached at all',
      answered: [],
      fail: (page: Page) => page.route(SEND_FORM, (route) => route.abort('connectionrefused')),
    },
  ]
  for (const { how, answered, fail } of failures) {
    test(`keeps what was typed and shows the failure toast when EmailJS ${how}`, async ({
      page,
      emailJs,
    }) => {
      await fail(page, emailJs)
      await page.goto('/contact')

      await sendContact(page, ada)

      await expect(toast(page, 'error', TOASTS.contactFailed)).toBeVisible()
      await expectFieldValues(contactForm(page), ada)
      await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled()
      expect(emailJs.received.map((sent) => sent.status)).toEqual(answered)
    })
  }

  test('shows each message only after its field was touched', async ({ page }) => {
    await openUntouched(page, '/contact')
    const form = contactForm(page)

    await expectRequiredUpTo(form.name, 30, {
      required: CONTACT_MESSAGES.nameRequired,
      tooLong: CONTACT_MESSAGES.nameTooLong,
    })

    await form.email.fill('ada@')
    await expect(fieldErrors(page)).toHaveCount(0)
    await form.email.blur()
    await expectFieldMessage(form.email, CONTACT_MESSAGES.emailInvalid)
    await form.email.fill('')
    await expectFieldMessage(form.email, CONTACT_MESSAGES.emailRequired)

    await expectTooLongThenRequired(form.message, 500, {
      required: CONTACT_MESSAGES.messageRequired,
      tooLong: CONTACT_MESSAGES.messageTooLong,
    })
  })

  test('sends nothing while the form is invalid', async ({ page, emailJs }) => {
    await page.goto('/contact')
    const form = contactForm(page)
    const submit = page.getByRole('button', { name: 'Submit' })

    await submit.click()
    await expect(fieldErrors(page)).toHaveText([
      CONTACT_MESSAGES.nameRequired,
      CONTACT_MESSAGES.emailRequired,
      CONTACT_MESSAGES.messageRequired,
    ])
    await sendContact(page, { ...ada, email: 'not-an-address' })
    await expect(fieldErrors(page)).toHaveText([CONTACT_MESSAGES.emailInvalid])
    await expectFieldValues(contactForm(page), { ...ada, email: 'not-an-address' })

    // A valid submit goes through; it must be the only request the form ever sent.
    await form.email.fill(ada.email)
    await submit.click()
    await expect(toast(page, 'success', TOASTS.contactSent)).toBeVisible()
    await expect.poll(() => emailJs.received.map((sent) => sent.fields.email)).toEqual([ada.email])
  })
})
