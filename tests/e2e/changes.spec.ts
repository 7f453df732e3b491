import type { Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { draft, type NewsItem } from './support/news-api'
import { toast } from './support/toasts'

/*
 * The recent changes, the patrol's page, in real Chromium: changes made by other visitors (each
 * from an address of its own, behind the server's trusted proxy) and in another tab, as the
 * patrol sees them; its filter by editor, its Undo, and its pages without JavaScript.
 */

const VANDAL = '10.66.6.6'
const REPORTER = '10.77.7.7'
const UNDONE = 'the change is undone'

interface RecentChange {
  readonly id: string
  readonly kind: string
  readonly revision: number
  readonly editor: string
  readonly title: string
}

/** A write through the API as the visitor at `address` makes it. */
async function writeAs(
  origin: string,
  address: string,
  method: string,
  path: string,
  body?: object,
): Promise<Response> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`)
  return response
}

async function createAs(origin: string, address: string, title: string): Promise<NewsItem> {
  const response = await writeAs(origin, address, 'POST', '/api/news', draft(1, { title }))
  return (await response.json()) as NewsItem
}

/** The newest changes, as the API lists them. */
async function recentChanges(origin: string): Promise<RecentChange[]> {
  return (await (await fetch(`${origin}/api/changes`)).json()) as RecentChange[]
}

function rows(page: Page) {
  return page.getByRole('table').getByRole('row')
}

function rowOf(page: Page, title: string) {
  return rows(page).filter({ has: page.getByRole('link', { name: title, exact: true }) })
}

/** Opens the page and waits until it follows the live stream. */
async function openLive(page: Page, path: string): Promise<void> {
  const stream = page.waitForResponse((response) => response.url().includes('/api/events'))
  await page.goto(path)
  expect((await stream).status()).toBe(200)
}

test.describe('recent changes', () => {
  test('lists a post made in another tab as it is made, and says so politely', async ({
    page,
    context,
  }) => {
    await openLive(page, '/changes')
    await expect(page.getByRole('heading', { level: 1, name: 'Recent changes' })).toBeVisible()

    const other = await context.newPage()
    await other.goto('/news/new')
    await other.getByLabel('Title').fill('Night ferry added')
    await other.getByLabel('Author Name').fill('Ada Brook')
    await other.getByLabel('Body').fill('A ferry will sail at midnight from next week on.')
    await other.getByRole('button', { name: /add|save|publish/i }).click()
    await expect(other).toHaveURL(/\/news\/[\w-]+$/)

    const row = rowOf(page, 'Night ferry added')
    await expect(row).toBeVisible()
    await expect(row.getByRole('cell').first()).toHaveText('Created')
    await expect(page.getByText('1 new change at the top')).toBeAttached()
    await expect(row.getByRole('button', { name: /^Undo this change/ })).toBeVisible()
  })

  test('the editor’s link lists that editor’s changes only; the page passes axe', async ({
    page,
    newsWire,
  }, testInfo) => {
    const origin = newsWire.origin
    const good = await createAs(origin, REPORTER, 'Tram line extended')
    await createAs(origin, VANDAL, 'Cheap pills here')
    await writeAs(origin, VANDAL, 'PATCH', `/api/news/${good._id}`, { title: 'Buy cheap pills' })
    const vandal = (await recentChanges(origin))[0]?.editor ?? ''
    expect(vandal).toMatch(/^[0-9a-f]{10}$/)

    await page.goto('/changes')
    await expect(rows(page)).toHaveCount(4)
    await expectNoSeriousAxeViolations(page, testInfo, 'changes')
    // On a phone the table scrolls sideways within its own region, never the page.
    await page.setViewportSize({ width: 375, height: 800 })
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBe(0)
    await expectNoSeriousAxeViolations(page, testInfo, 'changes-375')
    await page.setViewportSize({ width: 1280, height: 800 })
    await rowOf(page, 'Buy cheap pills')
      .getByRole('link', { name: `Visitor ${vandal}` })
      .click()

    await expect(page).toHaveURL(new RegExp(`/changes\\?editor=${vandal}$`))
    await expect(page.getByText(`Only the changes by Visitor ${vandal}.`)).toBeVisible()
    await expect(rows(page)).toHaveCount(3)
    await expect(rowOf(page, 'Tram line extended')).toHaveCount(0)
    await expect(rowOf(page, 'Cheap pills here')).toBeVisible()
    await page.getByRole('link', { name: 'See every change' }).click()
    await expect(rows(page)).toHaveCount(4)
  })

  test('Undo this change brings back the version before a vandal’s edit', async ({
    page,
    newsWire,
    api,
  }) => {
    const origin = newsWire.origin
    const post = await createAs(origin, REPORTER, 'Harbour reopens on Monday')
    await writeAs(origin, VANDAL, 'PATCH', `/api/news/${post._id}`, { title: 'Spam spam spam' })

    await openLive(page, '/changes')
    const vandalised = rowOf(page, 'Spam spam spam')
    // Only the newest change of the post can be undone here.
    await expect(
      rowOf(page, 'Harbour reopens on Monday').getByRole('button', { name: /^Undo/ }),
    ).toHaveCount(0)
    await vandalised.getByRole('button', { name: /^Undo this change/ }).click()

    await expect(toast(page, 'success', UNDONE)).toBeVisible()
    expect((await api.find(post._id))?.title).toBe('Harbour reopens on Monday')
    // The undo is a change of its own, on top, and the vandal's can no longer be undone alone.
    await expect(rows(page).nth(1)).toContainText('Harbour reopens on Monday')
    await expect(rows(page).nth(1)).toContainText('Edited')
    await expect(vandalised.getByRole('button', { name: /^Undo/ })).toHaveCount(0)
    // Its button gone, the focus waits on the heading, above the undo.
    await expect(page.getByRole('heading', { level: 1, name: 'Recent changes' })).toBeFocused()
  })

  test('Load more brings older changes and puts the focus on the first of them', async ({
    page,
    newsWire,
  }) => {
    for (let n = 1; n <= 26; n += 1) await createAs(newsWire.origin, REPORTER, `Report ${n}`)
    await page.goto('/changes')
    await expect(rows(page)).toHaveCount(25)
    await page.getByRole('button', { name: 'Load more' }).click()
    await expect(rows(page)).toHaveCount(27)
    await expect(rows(page).nth(25).getByRole('rowheader')).toBeFocused()
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0)
  })
})

test.describe('recent changes without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('pages on through the real next-page link, one editor’s kept', async ({
    page,
    newsWire,
  }) => {
    for (let n = 1; n <= 26; n += 1) await createAs(newsWire.origin, VANDAL, `Spam ${n}`)
    const vandal = (await recentChanges(newsWire.origin))[0]?.editor ?? ''

    await page.goto(`/changes?editor=${vandal}`)
    await expect(rows(page)).toHaveCount(25)
    await expect(rowOf(page, 'Spam 26')).toBeVisible()
    await page.getByRole('link', { name: 'Next page' }).click()
    await expect(page).toHaveURL(new RegExp(`/changes\\?editor=${vandal}&cursor=[\\w-]+$`))
    await expect(rows(page)).toHaveCount(3)
    await expect(rowOf(page, 'Spam 2')).toBeVisible()
    await expect(rowOf(page, 'Spam 1')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Next page' })).toHaveCount(0)
  })
})
