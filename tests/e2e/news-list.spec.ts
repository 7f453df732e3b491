import { expect, test } from './support/fixtures'
import { draft } from './support/news-api'
import { failRequests, holdRequests, NEWS_LIST, recordRequests } from './support/network'
import { boxOf, cards, expectLocalPicture, waitForImages } from './support/screens'
import { PAGE_SIZE } from './support/spec-texts'

const CARD_IMAGE = 'https://picsum.photos/seed/newswire/800/250'

test.describe('the news list', () => {
  test('shows on each card the same image, the author, title, an excerpt and a Read More link', async ({
    page,
    api,
    imageService,
  }) => {
    const body =
      'The tide turned at noon and the fishing fleet came home together. '.repeat(6) +
      'This closing sentence is far beyond the excerpt.'
    const [, , item] = await api.createMany([draft(2), draft(3), draft(1, { body })])

    await page.goto('/')

    await expect(cards(page)).toHaveCount(3)
    const card = cards(page).first()
    await expect(card.getByText(item.author, { exact: true })).toBeVisible()
    await expect(card.getByRole('heading', { level: 2 })).toHaveText(item.title)
    const excerpt = card.getByText(/^The tide turned at noon/)
    await expect(excerpt).toBeVisible()
    const shown = (await excerpt.textContent()) ?? ''
    expect(shown.length).toBeLessThan(body.length)
    expect(shown.endsWith('…')).toBe(true)
    expect(shown).not.toContain('closing sentence')

    // The image service's placeholder, 250px high across the card; with the service out of
    // reach (no internet here) the local picture (800 × 250) stands in.
    const image = card.locator('img')
    expect(imageService.requested).toContain(CARD_IMAGE)
    await expectLocalPicture(image, [800, 250])
    const [imageBox, cardBox] = await Promise.all([image, card].map(boxOf))
    expect(imageBox?.height).toBe(250)
    expect(Math.abs((imageBox?.width ?? 0) - (cardBox?.width ?? 0))).toBeLessThanOrEqual(2)
    await waitForImages(page)
    const sources = await cards(page)
      .locator('img')
      .evaluateAll((images) => images.map((img) => img.getAttribute('src')))
    expect(new Set(sources).size).toBe(1)
    expect(new Set(imageService.requested)).toEqual(new Set([CARD_IMAGE]))

    const readMore = card.getByRole('link', { name: /^Read More/ })
    await expect(readMore).toHaveAttribute('href', `/news/${item._id}`)
    await readMore.click()
    await expect(page).toHaveURL(`/news/${item._id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(item.title)
  })

  test('loads the list once each time the screen opens in the app, and renders nothing in the grid before', async ({
    page,
    api,
  }) => {
    await api.createNumbered(2)
    const loads = recordRequests(page, 'GET', NEWS_LIST)
    await page.goto('/contact')
    const gate = await holdRequests(page, 'GET', NEWS_LIST)

    await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click()
    await gate.reached
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeAttached()
    await expect(cards(page)).toHaveCount(0)
    await expect(page.getByText('There are no news posts yet.')).toHaveCount(0)
    gate.open()
    await expect(cards(page)).toHaveCount(2)

    // Opening the screen again loads it again: one load per opening, none in between.
    await page.getByRole('navigation').getByRole('link', { name: 'Contact' }).click()
    await expect(page.getByRole('heading', { name: 'Contact us' })).toBeVisible()
    await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click()
    await expect(cards(page)).toHaveCount(2)
    expect(loads).toHaveLength(2)
  })

  test('arrives with its first page rendered, loading nothing more, and loads the next page as the visitor scrolls to the end', async ({
    page,
    api,
  }) => {
    const { length: total } = await api.createNumbered(PAGE_SIZE + 6)
    const loads = recordRequests(page, 'GET', NEWS_LIST)

    await page.goto('/')
    await expect(cards(page)).toHaveCount(PAGE_SIZE)
    // The first page came with the page itself.
    expect(loads).toHaveLength(0)
    await expect(page.getByRole('button', { name: 'Load more' })).toBeAttached()

    await cards(page).last().scrollIntoViewIfNeeded()
    await page.mouse.wheel(0, 5000)

    await expect(cards(page)).toHaveCount(total)
    expect(loads).toHaveLength(1)
    expect(new URL(loads[0]?.url() ?? '').searchParams.get('cursor')).toBeTruthy()
    const titles = await cards(page).getByRole('heading').allTextContents()
    expect(new Set(titles).size).toBe(total)
    // Nothing more to load: no button offers it.
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0)
  })

  test('invites the first post when there is no news', async ({ page }) => {
    await page.goto('/')

    await expect(page.getByText('There are no news posts yet.')).toBeVisible()
    await expect(cards(page)).toHaveCount(0)
    await page.getByRole('link', { name: 'Write the first one' }).click()
    await expect(page).toHaveURL('/news/new')
  })

  test('shows an inline error with Retry when the list cannot load, and Retry loads it', async ({
    page,
    post,
  }) => {
    await page.goto('/contact')
    await failRequests(page, 'GET', NEWS_LIST, 1)

    await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click()

    const error = page.getByRole('alert').filter({ hasText: 'The news could not be loaded.' })
    await expect(error).toBeVisible()
    await expect(cards(page)).toHaveCount(0)
    await error.getByRole('button', { name: 'Retry' }).click()
    await expect(cards(page).getByRole('heading')).toHaveText([post.title])
    await expect(error).toHaveCount(0)
  })
})
