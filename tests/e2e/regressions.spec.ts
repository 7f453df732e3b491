import { expect, test } from './support/fixtures'
import { fieldErrors, fillFields, newsForm } from './support/forms'
import { cards } from './support/screens'
import { CONTACT_MESSAGES, NEWS_MESSAGES, TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

/** Bugs this suite found in the app and the server, kept fixed by a test of the behaviour. */

test.describe('regressions', () => {
  // Leaving a field reveals its message under it; the message pushes the submit button down
  // between mousedown and mouseup, so the click lands on the form and nothing is checked.
  const forms = [
    {
      path: '/news/new',
      field: 'Body',
      value: 'b'.repeat(501),
      button: 'Add news',
      messages: [
        NEWS_MESSAGES.titleRequired,
        NEWS_MESSAGES.authorRequired,
        NEWS_MESSAGES.bodyTooLong,
      ],
      first: 'Title',
    },
    {
      path: '/contact',
      field: 'Email Address',
      value: 'ada@example',
      button: 'Submit',
      messages: [
        CONTACT_MESSAGES.nameRequired,
        CONTACT_MESSAGES.emailInvalid,
        CONTACT_MESSAGES.messageRequired,
      ],
      first: 'Name',
    },
  ]
  for (const { path, field, value, button, messages, first } of forms) {
    test(`a click on ${button} checks the whole form even when leaving a field reveals its message`, async ({
      page,
    }) => {
      const sent: string[] = []
      page.on(
        'request',
        (request) => void (request.method() === 'POST' && sent.push(request.url())),
      )
      await page.goto(path)
      await page.getByLabel(field).fill(value)

      await page.getByRole('button', { name: button }).click()

      // A submit touches every field: all their messages, and the focus on the first.
      await expect(fieldErrors(page)).toHaveText(messages)
      await expect(page.getByLabel(first)).toBeFocused()
      expect(sent).toEqual([])
    })
  }

  test('a title of 100 characters is stored even when each is an emoji of several code points', async ({
    page,
    api,
  }) => {
    // One character to a reader (a grapheme cluster) made of 7 code points.
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}'
    const title = family.repeat(100)
    await page.goto('/news/new')

    const body = 'The form counts characters as a reader sees them.'
    await fillFields(newsForm(page), { title, author: 'Emoji desk', body })
    await expect(fieldErrors(page)).toHaveCount(0)
    await page.getByRole('button', { name: 'Add news' }).click()

    await expect(toast(page, 'success', TOASTS.created)).toBeVisible()
    await expect(cards(page).getByRole('heading')).toHaveText([title])
    expect(await api.list()).toHaveLength(1)
  })
})
