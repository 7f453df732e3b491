import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { deleteThroughApi } from './support/history-api'
import { draft } from './support/news-api'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

const IN_TRASH = {
  heading: 'This post was deleted',
  where: 'is in Recently deleted, where it can be restored.',
  link: 'See it in Recently deleted',
  restore: 'Restore it',
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
    await deleteThroughApi(api.origin, post._id)

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

    await expect(toast(page, 'success', 'the news post is back')).toBeVisible()
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(post.title)
    await expect(main.getByRole('heading', { level: 1 })).toBeFocused()
    await expect(page).toHaveURL(new RegExp(`/news/${post._id}$`))
    expect(await api.find(post._id)).toMatchObject({ title: post.title })
  })

  test('a page loaded at its address answers 410 and gains Restore once the app runs', async ({
    page,
    api,
  }) => {
    const post = await api.createDeleted(draft(2, { title: 'Bridge closed for repairs' }))

    const response = await page.goto(`/news/${post._id}`)

    expect(response?.status()).toBe(410)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(IN_TRASH.heading)
    await expect(page.getByRole('button', { name: IN_TRASH.restore })).toBeVisible()
    await page.getByRole('link', { name: IN_TRASH.link }).click()
    await expect(page).toHaveURL(/\/trash#/)
    await expect(page.getByRole('heading', { level: 2, name: post.title })).toBeVisible()
  })
})

test.describe('a link to a post in the trash, without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('answers 410 with a page that links to the post in Recently deleted', async ({
    page,
    api,
  }) => {
    const post = await api.createDeleted(draft(3, { title: 'Lighthouse open to visitors' }))

    const response = await page.goto(`/news/${post._id}`)

    expect(response?.status()).toBe(410)
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(IN_TRASH.heading)
    await expect(main).toContainText(`“${post.title}” ${IN_TRASH.where}`)
    await expect(main).not.toContainText('not available')
    // Restore needs the app: without it, the page offers none.
    await expect(main.getByRole('button')).toHaveCount(0)

    await main.getByRole('link', { name: IN_TRASH.link }).click()
    await expect(page).toHaveURL(/\/trash#/)
    await expect(page.getByRole('heading', { level: 2, name: post.title })).toBeVisible()
  })
})
