import { expect, test } from './support/fixtures'
import { cards } from './support/screens'
import { CONTACT_MESSAGES, NEWS_MESSAGES, TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

/** Bugs this suite found in the app and the server, kept fixed by a test of the behaviour. */

test.describe('regressions', () => {
  // Leaving a field reveals its message under it; the message pushes the submit button down
  // between mousedown and mouseup, so the click lands on the form and nothing is submitted.
  test('a click on Add news submits even when leaving the field reveals its message', async ({
    page,
  }) => {
    await page.goto('/news/new')
    await page.getByLabel('Body').fill('b'.repeat(501))

    await page.getByRole('button', { name: 'Add news' }).click()

    // A submit touches every field: all three messages, and the focus on the first.
    await expect(page.getByRole('main').locator('.field-error')).toHaveText([
      NEWS_MESSAGES.titleRequired,
      NEWS_MESSAGES.authorRequired,
      NEWS_MESSAGES.bodyTooLong,
    ])
    await expect(page.getByLabel('Title')).toBeFocused()
  })

  test('a click on Submit checks the contact form even when leaving a field reveals its message', async ({
    page,
    emailJs,
  }) => {
    await page.goto('/contact')
    await page.getByLabel('Email Address').fill('ada@example')

    await page.getByRole('button', { name: 'Submit' }).click()

    await expect(page.getByRole('main').locator('.field-error')).toHaveText([
      CONTACT_MESSAGES.nameRequired,
      CONTACT_MESSAGES.emailInvalid,
      CONTACT_MESSAGES.messageRequired,
    ])
    await expect(page.getByLabel('Name')).toBeFocused()
    expect(emailJs.received).toEqual([])
  })

  test('a title of 100 characters is stored even when each is an emoji of several code points', async ({
    page,
    api,
  }) => {
    // One character to a reader (a grapheme cluster) made of 7 code points.
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}'
    const title = family.repeat(100)
    await page.goto('/news/new')

    await page.getByLabel('Title').fill(title)
    await page.getByLabel('Author Name').fill('Emoji desk')
    await page.getByLabel('Body').fill('The form counts characters as a reader sees them.')
    await expect(page.getByRole('main').locator('.field-error')).toHaveCount(0)
    await page.getByRole('button', { name: 'Add news' }).click()

    await expect(toast(page, 'success', TOASTS.created)).toBeVisible()
    await expect(cards(page).getByRole('heading')).toHaveText([title])
    expect(await api.list()).toHaveLength(1)
  })
})
