import type { Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { tabThroughPage, tabTo } from './support/keyboard'
import { draft } from './support/news-api'
import { failRequests, NEWS_ITEM, NEWS_LIST } from './support/network'
import { cards, expectHydrated } from './support/screens'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

/** Waits until the toast has slid in, so that axe sees it as a visitor does. */
async function settledToast(page: Page, kind: 'success' | 'error', text: string) {
  const shown = toast(page, kind, text)
  await expect(shown).toBeVisible()
  await expect
    .poll(() =>
      shown.evaluate((element) => element.getAnimations().every((a) => a.playState !== 'running')),
    )
    .toBe(true)
}

test.describe('accessibility (axe: no serious or critical violations)', () => {
  test('the news list: empty, filled, failed, on a phone, and with a toast', async ({
    page,
    api,
  }, testInfo) => {
    await page.goto('/')
    await expect(page.getByText('There are no news posts yet.')).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-empty')

    await api.createMany([1, 2, 3, 4].map((n) => draft(n)))
    await page.reload()
    await expect(cards(page)).toHaveCount(4)
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-filled')

    await page.setViewportSize({ width: 375, height: 812 })
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-filled-375')
    await page.setViewportSize({ width: 1280, height: 800 })

    // The first page comes with the page; a load the app makes itself is what can fail.
    await page.goto('/contact')
    await expectHydrated(page)
    await failRequests(page, 'GET', NEWS_LIST, 1)
    await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click()
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-failed')

    await page.goto('/no/such/page')
    await settledToast(page, 'error', TOASTS.notAvailable)
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-with-toast')
  })

  test('the article: loaded, and failed to load', async ({ page, api }, testInfo) => {
    const item = await api.create(draft(1))
    await page.goto(`/news/${item._id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(item.title)
    await expectNoSeriousAxeViolations(page, testInfo, 'article')

    await page.goto('/')
    await expectHydrated(page)
    await failRequests(page, 'GET', NEWS_ITEM, 1)
    await cards(page)
      .getByRole('link', { name: /^Read More/ })
      .click()
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'article-failed')
  })

  test('the add form: empty, filled, and with messages', async ({ page }, testInfo) => {
    await page.goto('/news/new')
    await expect(page.getByLabel('Title')).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'add-news-empty')

    await page.getByLabel('Title').fill('A title')
    await page.getByLabel('Author Name').fill('An author')
    await page.getByLabel('Body').fill('A body.')
    await expectNoSeriousAxeViolations(page, testInfo, 'add-news-filled')

    await page.getByLabel('Title').fill('')
    await page.getByLabel('Body').fill('')
    await page.getByRole('button', { name: 'Add news' }).click()
    await expect(page.locator('.field-error')).toHaveCount(2)
    await expectNoSeriousAxeViolations(page, testInfo, 'add-news-errors')
  })

  test('the edit form: prefilled, and emptied with messages', async ({ page, api }, testInfo) => {
    const item = await api.create(draft(1))
    await page.goto(`/news/${item._id}/edit`)
    await expect(page.getByLabel('Title')).toHaveValue(item.title)
    await expectNoSeriousAxeViolations(page, testInfo, 'edit-news-filled')

    for (const label of ['Title', 'Author Name', 'Body']) await page.getByLabel(label).fill('')
    await page.getByRole('button', { name: 'Edit news' }).click()
    await expect(page.locator('.field-error')).toHaveCount(3)
    await expectNoSeriousAxeViolations(page, testInfo, 'edit-news-errors')
  })

  test('the contact form: empty, filled, with messages, and sent', async ({ page }, testInfo) => {
    await page.goto('/contact')
    await expect(page.getByLabel('Name')).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'contact-empty')

    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.locator('.field-error')).toHaveCount(3)
    await expectNoSeriousAxeViolations(page, testInfo, 'contact-errors')

    await page.getByLabel('Name').fill('Ada')
    await page.getByLabel('Email Address').fill('ada@example.org')
    await page.getByLabel('Your Message').fill('Hello.')
    await expect(page.locator('.field-error')).toHaveCount(0)
    await expectNoSeriousAxeViolations(page, testInfo, 'contact-filled')

    await page.getByRole('button', { name: 'Submit' }).click()
    await settledToast(page, 'success', TOASTS.contactSent)
    await expectNoSeriousAxeViolations(page, testInfo, 'contact-sent-with-toast')
  })
})

test.describe('the keyboard alone', () => {
  test('reaches every link, button and field on each screen, with a visible focus', async ({
    page,
    api,
  }) => {
    const [item] = await api.createMany([draft(1), draft(2)])
    const screens = ['/', `/news/${item?._id}`, `/news/${item?._id}/edit`, '/news/new', '/contact']
    for (const path of screens) {
      await page.goto(path)
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeAttached()
      await expect(page.getByRole('main').getByRole('button').or(cards(page)).first()).toBeVisible()

      const { reached, missed } = await tabThroughPage(page)

      expect(missed, `not reachable by Tab on ${path}`).toEqual([])
      expect(
        reached.filter((stop) => !stop.ringVisible).map((stop) => stop.name),
        `no visible focus on ${path}`,
      ).toEqual([])
    }
  })

  test('the skip link takes the focus to the content', async ({ page, api }) => {
    await api.create(draft(1))
    await page.goto('/')
    await expect(cards(page)).toHaveCount(1)

    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to content' })
    await expect(skip).toBeFocused()
    await expect(skip).toBeInViewport()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('main')).toBeFocused()
    await page.keyboard.press('Tab')
    // The grid's one Tab stop: its first card (Enter on it opens the post).
    await expect(cards(page).first()).toBeFocused()
  })

  test('creates a post without the mouse', async ({ page, api }) => {
    await page.goto('/')
    await expect(page.getByText('There are no news posts yet.')).toBeVisible()

    await tabTo(page, page.getByRole('navigation').getByRole('link', { name: 'New News' }))
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL('/news/new')
    await tabTo(page, page.getByLabel('Title'))
    await page.keyboard.type('Typed without a mouse')
    await page.keyboard.press('Tab')
    await expect(page.getByLabel('Author Name')).toBeFocused()
    await page.keyboard.type('Keyboard Reporter')
    await page.keyboard.press('Tab')
    await expect(page.getByLabel('Body')).toBeFocused()
    await page.keyboard.type('Every step of this post was made with the keyboard.')
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: 'Add news' })).toBeFocused()
    await page.keyboard.press('Enter')

    await expect(toast(page, 'success', TOASTS.created)).toBeVisible()
    await expect(page).toHaveURL('/')
    await expect(cards(page).getByRole('heading')).toHaveText(['Typed without a mouse'])
    expect(await api.list()).toMatchObject([
      {
        title: 'Typed without a mouse',
        author: 'Keyboard Reporter',
        body: 'Every step of this post was made with the keyboard.',
      },
    ])
  })

  test('opens, edits and deletes a post without the mouse', async ({ page, api }) => {
    const item = await api.create(draft(1))
    await page.goto('/')
    await expect(cards(page)).toHaveCount(1)

    // The card is the grid's Tab stop; Enter on it follows its Read More.
    await tabTo(page, cards(page).first())
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(`/news/${item._id}`)

    await tabTo(page, page.getByRole('link', { name: 'Edit' }))
    await page.keyboard.press('Enter')
    await expect(page.getByLabel('Title')).toHaveValue(item.title)
    await tabTo(page, page.getByLabel('Title'))
    await page.keyboard.press('End')
    await page.keyboard.type(' (updated)')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(`/news/${item._id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${item.title} (updated)`)
    await expect(toast(page, 'success', TOASTS.edited)).toBeVisible()

    await tabTo(page, page.getByRole('button', { name: 'Delete' }))
    await page.keyboard.press('Space')
    await expect(toast(page, 'success', TOASTS.deleted)).toBeVisible()
    await expect(page).toHaveURL('/')
    expect(await api.list()).toEqual([])
  })
})
