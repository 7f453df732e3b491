import { calendarDate } from './support/dates'
import { expect, test } from './support/fixtures'
import { draft } from './support/news-api'
import { holdRequests, NEWS_ITEM, recordRequests } from './support/network'
import { boxOf, expectLocalPicture, readMore } from './support/screens'
import { expectNotAvailableAtHome } from './support/toasts'

test.describe('the article view', () => {
  test("arrives rendered, loading nothing more: the title, a picture, 'Created By: {author} | YYYY/MM/DD', the body, Edit, Delete and History", async ({
    page,
    api,
    imageService,
  }) => {
    const item = await api.create(
      draft(1, { body: 'The first paragraph.\nThe second paragraph, on its own line.' }),
    )
    const loads = recordRequests(page, 'GET', NEWS_ITEM)

    await page.goto(`/news/${item._id}`)

    const article = page.getByRole('main').getByRole('article')
    await expect(article.getByRole('heading', { level: 1 })).toHaveText(item.title)
    // The UTC calendar's day, whatever the browser's (the suite runs in Pacific/Auckland), so
    // that the server's page and the browser's agree (docs/spec-deviations.md).
    const day = calendarDate(item.createdAt, 'UTC')
    await expect(article.getByText(/^Created By:/)).toHaveText(
      `Created By: ${item.author} | ${day}`,
    )
    const body = article.getByText('The first paragraph.', { exact: false })
    await expect(body).toBeVisible()
    expect(await body.innerText()).toBe(
      'The first paragraph.\nThe second paragraph, on its own line.',
    )

    const image = article.locator('img')
    expect(imageService.requested).toContain(
      `https://picsum.photos/seed/${encodeURIComponent(item._id)}/1920/1080`,
    )
    await expectLocalPicture(image, [800, 250])
    // It keeps its 16:9 box across the article while it shows the local picture.
    const box = await boxOf(image)
    expect(Math.abs((box?.height ?? 0) - ((box?.width ?? 0) * 9) / 16)).toBeLessThanOrEqual(1)

    await expect(article.getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/news/${item._id}/edit`,
    )
    await expect(article.getByRole('button', { name: 'Delete' })).toBeEnabled()
    await expect(page.getByRole('link', { name: 'History' })).toHaveAttribute(
      'href',
      `/news/${item._id}/history`,
    )
    await expect(page).toHaveTitle(`${item.title} | NewsWire`)
    expect(loads).toHaveLength(0)
  })

  test('shows nothing of the article until it has loaded, when opened in the app', async ({
    page,
    post,
  }) => {
    await page.goto('/')
    const gate = await holdRequests(page, 'GET', NEWS_ITEM)

    await readMore(page)
    await gate.reached

    const main = page.getByRole('main')
    await expect(main.getByRole('heading')).toHaveCount(0)
    await expect(main.getByText(/Created By/)).toHaveCount(0)
    await expect(main.getByRole('button', { name: 'Delete' })).toHaveCount(0)
    gate.open()
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(post.title)
  })
})

test.describe('routing', () => {
  for (const path of ['/no/such/page', '/news/no-such-post', '/news/no-such-post/edit']) {
    test(`leads home from ${path} with the not-available toast`, async ({ page }) => {
      await page.goto(path)

      await expectNotAvailableAtHome(page)
      await expect(page.getByRole('heading', { name: 'Latest news' })).toBeAttached()
    })
  }
})
