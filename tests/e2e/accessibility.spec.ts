import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { contactForm, fieldErrors, fillFields, newsForm } from './support/forms'
import { tabThroughPage, tabTo } from './support/keyboard'
import { draft } from './support/news-api'
import { failRequests, NEWS_ITEM, NEWS_LIST } from './support/network'
import { cards, readMore } from './support/screens'
import { TOASTS } from './support/spec-texts'
import { settledToast, toast } from './support/toasts'

test.describe('accessibility (axe: no serious or critical violations)', () => {
  test('the news list: empty, filled, failed, on a phone, and with a toast', async ({
    page,
    api,
  }, testInfo) => {
    await page.goto('/')
    await expect(page.getByText('There are no news posts yet.')).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-empty')

    await api.createNumbered(4)
    await page.reload()
    await expect(cards(page)).toHaveCount(4)
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-filled')

    await page.setViewportSize({ width: 375, height: 812 })
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-filled-375')
    await page.setViewportSize({ width: 1280, height: 800 })

    // The first page comes with the page; a load the app makes itself is what can fail.
    await page.goto('/contact')
    await failRequests(page, 'GET', NEWS_LIST, 1)
    await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click()
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-failed')

    await page.goto('/no/such/page')
    await settledToast(page, 'error', TOASTS.notAvailable)
    await expectNoSeriousAxeViolations(page, testInfo, 'news-list-with-toast')
  })

  test('the article: loaded, and failed to load', async ({ page, post }, testInfo) => {
    await page.goto(`/news/${post._id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title)
    await expectNoSeriousAxeViolations(page, testInfo, 'article')

    await page.goto('/')
    await failRequests(page, 'GET', NEWS_ITEM, 1)
    await readMore(page)
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'article-failed')
  })

  test('the add form: empty, filled, and with messages', async ({ page }, testInfo) => {
    await page.goto('/news/new')
    const form = newsForm(page)
    await expect(form.title).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'add-news-empty')

    await fillFields(form, { title: 'A title', author: 'An author', body: 'A body.' })
    await expectNoSeriousAxeViolations(page, testInfo, 'add-news-filled')

    await fillFields(form, { title: '', body: '' })
    await page.getByRole('button', { name: 'Add news' }).click()
    await expect(fieldErrors(page)).toHaveCount(2)
    await expectNoSeriousAxeViolations(page, testInfo, 'add-news-errors')
  })

  test('the edit form: prefilled, and emptied with messages', async ({ page, post }, testInfo) => {
    await page.goto(`/news/${post._id}/edit`)
    const form = newsForm(page)
    await expect(form.title).toHaveValue(post.title)
    await expectNoSeriousAxeViolations(page, testInfo, 'edit-news-filled')

    await fillFields(form, { title: '', author: '', body: '' })
    await form.save.click()
    await expect(fieldErrors(page)).toHaveCount(3)
    await expectNoSeriousAxeViolations(page, testInfo, 'edit-news-errors')
  })

  test('the contact form: empty, filled, with messages, and sent', async ({ page }, testInfo) => {
    await page.goto('/contact')
    await expect(contactForm(page).name).toBeVisible()
    await expectNoSeriousAxeViolations(page, testInfo, 'contact-empty')

    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(fieldErrors(page)).toHaveCount(3)
    await expectNoSeriousAxeViolations(page, testInfo, 'contact-errors')

    await fillFields(contactForm(page), {
      name: 'Ada',
      email: 'ada@example.org',
      message: 'Hello.',
    })
    await expect(fieldErrors(page)).toHaveCount(0)
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
    const screens = ['/', `/news/${item._id}`, `/news/${item._id}/edit`, '/news/new', '/contact']
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

  test('opens, edits and deletes a post without the mouse', async ({ page, api, post }) => {
    await page.goto('/')
    await expect(cards(page)).toHaveCount(1)

    // The card is the grid's Tab stop; Enter on it follows its Read More.
    await tabTo(page, cards(page).first())
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(`/news/${post._id}`)

    await tabTo(page, page.getByRole('link', { name: 'Edit' }))
    await page.keyboard.press('Enter')
    await expect(page.getByLabel('Title')).toHaveValue(post.title)
    await tabTo(page, page.getByLabel('Title'))
    await page.keyboard.press('End')
    await page.keyboard.type(' (updated)')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(`/news/${post._id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${post.title} (updated)`)
    await expect(toast(page, 'success', TOASTS.edited)).toBeVisible()

    await tabTo(page, page.getByRole('button', { name: 'Delete' }))
    await page.keyboard.press('Space')
    await expect(toast(page, 'success', TOASTS.deleted)).toBeVisible()
    await expect(page).toHaveURL('/')
    expect(await api.list()).toEqual([])
  })
})
