import type { Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test, withoutJavaScript } from './support/fixtures'
import { draft, type NewsApi, type NewsItem } from './support/news-api'
import { NOTHING_LOST_TEXTS } from './support/nothing-lost'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

const IN_TRASH = {
  heading: 'This post was deleted',
  where: 'is in Recently deleted, where it can be restored.',
  link: 'See it in Recently deleted',
  restore: 'Restore it',
}

/** Opens the address of a post that is in the trash, titled `title`: a page answered 410. */
async function openTrashed(page: Page, api: NewsApi, title: string): Promise<NewsItem> {
  const post = await api.createDeleted(draft(2, { title }))
  const response = await page.goto(`/news/${post._id}`)
  expect(response?.status()).toBe(410)
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(
    IN_TRASH.heading,
  )
  return post
}

test.describe('a link to a post in the trash', () => {
  test('in the app: says where the post is, and Restore brings it back at its address', async ({
    page,
    api,
  }, testInfo) => {
    const post = await api.create(draft(1, { title: 'Tide tables for the winter' }))
    await page.goto(`/news/${post._id}`)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click()
    await expect(page).toHaveURL(/\/$/)
    await api.delete(post._id)

    // Back to the post's address, inside the app.
    await page.goBack()

    await expect(page).toHaveURL(new RegExp(`/news/${post._id}$`))
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(IN_TRASH.heading)
    await expect(main).toContainText(`“${post.title}” ${IN_TRASH.where}`)
    await expect(main.getByRole('link', { name: IN_TRASH.link })).toHaveAttribute(
      'href',
      `/trash#trash-${post._id}-title`,
    )
    await expect(toast(page, 'error', TOASTS.notAvailable)).toHaveCount(0)
    await expect(page).toHaveTitle('Deleted post | NewsWire')
    await expectNoSeriousAxeViolations(page, testInfo, 'post-in-trash')

    await main.getByRole('button', { name: IN_TRASH.restore }).click()

    await expect(toast(page, 'success', NOTHING_LOST_TEXTS.restored)).toBeVisible()
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(post.title)
    await expect(main.getByRole('heading', { level: 1 })).toBeFocused()
    await expect(page).toHaveURL(new RegExp(`/news/${post._id}$`))
    expect(await api.find(post._id)).toMatchObject({ title: post.title })
  })

  test('a page loaded at its address answers 410 and gains Restore once the app runs', async ({
    page,
    api,
  }) => {
    const post = await openTrashed(page, api, 'Bridge closed for repairs')

    await expect(page.getByRole('button', { name: IN_TRASH.restore })).toBeVisible()
    await page.getByRole('link', { name: IN_TRASH.link }).click()
    await expect(page).toHaveURL(/\/trash#/)
    await expect(page.getByRole('heading', { level: 2, name: post.title })).toBeVisible()
  })
})

withoutJavaScript('a link to a post in the trash, without JavaScript', () => {
  test('answers 410 with a page that links to the post in Recently deleted', async ({
    page,
    api,
  }) => {
    const post = await openTrashed(page, api, 'Lighthouse open to visitors')

    const main = page.getByRole('main')
    await expect(main).toContainText(`“${post.title}” ${IN_TRASH.where}`)
    await expect(main).not.toContainText('not available')
    // Restore needs the app: without it, the page offers none.
    await expect(main.getByRole('button')).toHaveCount(0)

    await main.getByRole('link', { name: IN_TRASH.link }).click()
    await expect(page).toHaveURL(/\/trash#/)
    await expect(page.getByRole('heading', { level: 2, name: post.title })).toBeVisible()
  })
})
