import { spawnSync } from 'node:child_process'
import Database from 'better-sqlite3'
import { expect, test } from './support/fixtures'
import {
  contactForm,
  expectFieldValues,
  fieldErrors,
  fillFields,
  sendContact,
} from './support/forms'
import { REPO_ROOT } from './support/paths'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

// No EmailJS account: the server's built-in outbox answers the contact form.
test.use({ mail: 'outbox' })

interface OutboxRow {
  readonly name: string
  readonly email: string
  readonly message: string
}

/** Outbox messages are never served over HTTP; a test reads the database file, read-only. */
function outboxRows(databasePath: string): OutboxRow[] {
  const database = new Database(databasePath, { readonly: true, fileMustExist: true })
  try {
    return database
      .prepare('SELECT name, email, message FROM outbox_message ORDER BY id')
      .all() as OutboxRow[]
  } finally {
    database.close()
  }
}

test('the contact form stores the message in the outbox, confirms, and resets the form', async ({
  page,
  newsWire,
}) => {
  const before = outboxRows(newsWire.databasePath).length
  const config = await page.request.get('/api/config')
  expect((await config.json()) as unknown).toMatchObject({ emailjs: { origin: '' } })
  const sends = page.waitForRequest(
    (request) => request.url() === `${newsWire.origin}/api/v1.0/email/send-form`,
  )
  await page.goto('/contact')

  await sendContact(page, {
    name: 'Grace Hopper',
    email: 'grace@example.org',
    message: 'A bug in relay 70,\npanel F.',
  })

  await sends
  await expect(toast(page, 'success', TOASTS.contactSent)).toBeVisible()
  await expectFieldValues(contactForm(page), { name: '', message: '' })
  const rows = outboxRows(newsWire.databasePath).slice(before)
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.org' })
  expect(rows[0]?.message.replace(/\r\n/g, '\n')).toBe('A bug in relay 70,\npanel F.')

  // What an operator runs to read the outbox.
  const printed = spawnSync('npm', ['run', '--silent', 'outbox'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: newsWire.databaseUrl },
    encoding: 'utf8',
  })
  expect(printed.status, printed.stderr).toBe(0)
  expect(printed.stdout).toContain('From:     Grace Hopper <grace@example.org>')
  expect(printed.stdout).toContain('A bug in relay 70,')
})

test('the outbox stores a message of 500 characters even when each is an emoji of several bytes', async ({
  page,
  newsWire,
}) => {
  // One character to a reader (a grapheme cluster): 7 code points, 25 bytes of UTF-8.
  const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}'
  await page.goto('/contact')

  const message = family.repeat(500)
  await fillFields(contactForm(page), { name: 'Emoji desk', email: 'emoji@example.org', message })
  await expect(fieldErrors(page)).toHaveCount(0)
  await page.getByRole('button', { name: 'Submit' }).click()

  await expect(toast(page, 'success', TOASTS.contactSent)).toBeVisible()
  expect(outboxRows(newsWire.databasePath).map((row) => row.name)).toContain('Emoji desk')
})
