import type { Locator, Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test, withoutJavaScript } from './support/fixtures'
import { tabTo } from './support/keyboard'
import { draft, type NewsApi, type NewsDraft } from './support/news-api'
import { failRequests, recordRequests } from './support/network'
import { cards, sidewaysOverflow } from './support/screens'
import { PAGE_SIZE } from './support/spec-texts'

/** The search API, as the page calls it: the list's path with a query. */
const SEARCH_API = /\/api\/news\?(.*&)?q=/

/** The header's search field, on every page. */
function searchbox(page: Page): Locator {
  return page.getByRole('banner').getByRole('searchbox', { name: 'Search news' })
}

/** The polite status that says what the search found. */
function found(page: Page): Locator {
  return page.getByRole('main').getByRole('status')
}

/** The marked words of each result's title, in order. */
async function markedTitles(page: Page): Promise<string[][]> {
  return cards(page)
    .getByRole('heading', { level: 2 })
    .evaluateAll((titles) =>
      titles.map((title) => [...title.querySelectorAll('mark')].map((mark) => mark.textContent)),
    )
}

/** Searches from the header as a visitor does: types the words and presses Enter. */
async function search(page: Page, words: string): Promise<void> {
  await searchbox(page).fill(words)
  await searchbox(page).press('Enter')
}

/** Makes `drafts`, opens the list, and searches it for `words`. */
async function searchAmong(page: Page, api: NewsApi, drafts: NewsDraft[], words: string) {
  await api.createMany(drafts)
  await page.goto('/')
  await search(page, words)
}

test.describe('search from the header', () => {
  test('Enter in the header field opens the results, the matched words marked', async ({
    page,
    api,
  }) => {
    const drafts = [
      draft(1, { title: 'Harbour reopens after the storm' }),
      draft(2, { title: 'Night market returns', body: 'Forty stalls by the water.' }),
      draft(3, { title: 'Ferries back on the harbour route', body: 'Timetables are online.' }),
    ]

    await searchAmong(page, api, drafts, 'HARBOUR')

    await expect(page).toHaveURL('/search?q=HARBOUR')
    await expect(found(page)).toHaveText('2 posts found')
    await expect.poll(() => markedTitles(page)).toEqual([['harbour'], ['Harbour']])
    await expect(page).toHaveTitle('Search: HARBOUR | NewsWire')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “HARBOUR”')
    // As after any move to another screen, its heading takes the focus.
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused()
    await expect(searchbox(page)).toHaveValue('HARBOUR')
  })

  test("'CAFE' finds 'café', and marks it as written", async ({ page, api }) => {
    const drafts = [
      draft(1, { title: 'A new café opens', body: 'Coffee from dawn at the Café du Port.' }),
      draft(2, { title: 'Cafeteria closes', body: 'No word of a coffee shop here.' }),
    ]

    await searchAmong(page, api, drafts, 'CAFE')

    await expect(found(page)).toHaveText('1 post found')
    await expect.poll(() => markedTitles(page)).toEqual([['café']])
    await expect(cards(page).locator('.news-card-excerpt mark')).toHaveText(['Café'])
  })

  test('says when no post matches, with the query as text', async ({ page, api }, testInfo) => {
    await searchAmong(page, api, [draft(1)], '<b>lighthouse</b>')

    await expect(found(page)).toHaveText('No posts match “<b>lighthouse</b>”')
    await expect(cards(page)).toHaveCount(0)
    await expect(page.getByRole('main').locator('b')).toHaveCount(0)
    await expectNoSeriousAxeViolations(page, testInfo, 'search-empty')
  })

  test('shows the rules’ reason for a blank query and sends no search', async ({ page }) => {
    const searches = recordRequests(page, 'GET', SEARCH_API)
    await page.goto('/')

    await search(page, '   ')

    await expect(page).toHaveURL(/\/search\?q=/)
    await expect(found(page)).toHaveText('Type a word to search for')
    expect(searches).toHaveLength(0)
  })

  test('pages with Load more, the first page coming with the page itself', async ({
    page,
    api,
  }) => {
    const total = PAGE_SIZE + 3
    await api.createNumbered(total)
    await api.create(draft(100, { title: 'Night market returns', body: 'Forty stalls.' }))
    const searches = recordRequests(page, 'GET', SEARCH_API)

    await page.goto('/search?q=report')

    await expect(cards(page)).toHaveCount(PAGE_SIZE)
    await expect(found(page)).toHaveText(`More than ${PAGE_SIZE} posts found`)
    expect(searches).toHaveLength(0)
    await page.getByRole('button', { name: 'Load more' }).click()
    await expect(cards(page)).toHaveCount(total)
    await expect(found(page)).toHaveText(`${total} posts found`)
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0)
    expect(searches).toHaveLength(1)
    // Newest first, and each post once.
    const titles = await cards(page).getByRole('heading', { level: 2 }).allTextContents()
    expect(new Set(titles).size).toBe(total)
    expect(titles[0]).toBe(draft(total).title)
  })

  test('a failed search offers Retry', async ({ page, api }) => {
    await api.create(draft(1))
    await page.goto('/')
    await failRequests(page, 'GET', SEARCH_API, 1)

    await search(page, 'harbour')

    await expect(page.getByRole('alert')).toContainText('The results could not be loaded.')
    await page.getByRole('button', { name: 'Retry' }).click()
    await expect(found(page)).toHaveText('1 post found')
  })

  test('Back returns to the previous query, and Forward to the next', async ({ page, api }) => {
    await api.createMany([
      draft(1, { title: 'Harbour reopens' }),
      draft(2, { title: 'Night market returns', body: 'Forty stalls.' }),
    ])
    await page.goto('/')
    await search(page, 'market')
    await expect(found(page)).toHaveText('1 post found')
    await search(page, 'harbour')
    await expect(page).toHaveURL('/search?q=harbour')
    await expect.poll(() => markedTitles(page)).toEqual([['Harbour']])

    await page.goBack()

    await expect(page).toHaveURL('/search?q=market')
    await expect(searchbox(page)).toHaveValue('market')
    await expect(cards(page).getByRole('heading', { level: 2 })).toHaveText([
      'Night market returns',
    ])
    await page.goBack()
    await expect(page).toHaveURL('/')
    await expect(searchbox(page)).toHaveValue('')
    await page.goForward()
    await expect(searchbox(page)).toHaveValue('market')
    await expect(cards(page)).toHaveCount(1)
  })

  test('works from the keyboard alone', async ({ page, api }) => {
    const item = await api.create(draft(1, { title: 'Harbour reopens' }))
    await page.goto('/')

    await tabTo(page, searchbox(page))
    await page.keyboard.type('harbour')
    await page.keyboard.press('Enter')
    await expect(found(page)).toHaveText('1 post found')
    await tabTo(page, cards(page).getByRole('link', { name: /^Read More/ }))
    await page.keyboard.press('Enter')

    await expect(page).toHaveURL(`/news/${item._id}`)
  })

  test('passes axe with results, on a wide screen and at 320 px', async ({
    page,
    api,
  }, testInfo) => {
    await api.createNumbered(3)

    await page.goto('/search?q=harbour')
    await expect(cards(page)).toHaveCount(3)
    await expectNoSeriousAxeViolations(page, testInfo, 'search-results')

    await page.setViewportSize({ width: 320, height: 640 })
    await expectNoSeriousAxeViolations(page, testInfo, 'search-results-320')
  })
})

const SCREEN = { width: 320, height: 640 }
const LONG_WORD = 'Supercalifragilistic'.repeat(5)

test('at 320 px search scrolls nothing sideways, and the field has a row of its own under the site’s name', async ({
  page,
  api,
}) => {
  await api.create(draft(1, { title: LONG_WORD, body: `harbour ${LONG_WORD}` }))
  await page.setViewportSize(SCREEN)

  for (const path of ['/', `/search?q=harbour`, `/search?q=${LONG_WORD}`]) {
    await page.goto(path)
    await expect(searchbox(page)).toBeVisible()
    expect(await sidewaysOverflow(page), `sideways scroll on ${path}`).toBeLessThanOrEqual(0)
  }
  const field = await searchbox(page).boundingBox()
  const name = await page.getByRole('banner').getByText('NewsWire', { exact: true }).boundingBox()
  const button = await page
    .getByRole('banner')
    .getByRole('button', { name: 'Search' })
    .boundingBox()
  if (field === null || name === null || button === null) throw new Error('nothing to measure')
  expect(field.y).toBeGreaterThan(name.y + name.height)
  expect(field.height).toBeGreaterThanOrEqual(44)
  expect(button.x + button.width).toBeLessThanOrEqual(SCREEN.width)
})

withoutJavaScript('search without JavaScript', () => {
  test('the header form sends the query, and the server renders the results', async ({
    page,
    api,
  }) => {
    const drafts = [
      draft(1, { title: 'A new café opens', body: 'Coffee from dawn.' }),
      draft(2, { title: 'Night market returns', body: 'Forty stalls.' }),
    ]

    await searchAmong(page, api, drafts, 'CAFE opens')

    await expect(page).toHaveURL('/search?q=CAFE+opens')
    await expect(found(page)).toHaveText('1 post found')
    await expect.poll(() => markedTitles(page)).toEqual([['café', 'opens']])
    await expect(searchbox(page)).toHaveValue('CAFE opens')
    await expect(page).toHaveTitle('Search: CAFE opens | NewsWire')
  })

  test('a search that finds nothing says so, and answers 200', async ({ page }) => {
    const response = await page.goto('/search?q=lighthouse')

    expect(response?.status()).toBe(200)
    await expect(found(page)).toHaveText('No posts match “lighthouse”')
  })
})
