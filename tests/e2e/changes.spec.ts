import type { Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test, withoutJavaScript } from './support/fixtures'
import { writePost } from './support/forms'
import { draft, type NewsApi, type NewsItem } from './support/news-api'
import { openLive, sidewaysOverflow } from './support/screens'
import { toast } from './support/toasts'

/*
 * The recent changes, the patrol's page, in real Chromium: changes made by other visitors (each
 * from an address of its own, behind the server's trusted proxy) and in another tab, as the
 * patrol sees them; its filter by editor, its Undo, and its pages without JavaScript.
 */

const VANDAL = '10.66.6.6'
const REPORTER = '10.77.7.7'
const UNDONE = 'the change is undone'

/** A post made through the API by the visitor at `address`. */
async function createAs(api: NewsApi, address: string, title: string): Promise<NewsItem> {
  const made = await api.send('POST', '/api/news', 201, draft(1, { title }), as(address))
  return (await made.json()) as NewsItem
}

/** A change to a post through the API by the visitor at `address`. */
async function editAs(api: NewsApi, address: string, id: string, title: string): Promise<void> {
  await api.send('PATCH', `/api/news/${id}`, 200, { title }, as(address))
}

const as = (address: string) => ({ 'x-forwarded-for': address })

/** The pseudonym of the editor of the newest change, as the API lists them. */
async function newestEditor(api: NewsApi): Promise<string> {
  const changes = (await (await api.send('GET', '/api/changes', 200)).json()) as {
    editor: string
  }[]
  return changes[0]?.editor ?? ''
}

function rows(page: Page) {
  return page.getByRole('table').getByRole('row')
}

function rowOf(page: Page, title: string) {
  return rows(page).filter({ has: page.getByRole('link', { name: title, exact: true }) })
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
    await writePost(other, draft(1, { title: 'Night ferry added' }))
    await expect(other).toHaveURL('/')

    const row = rowOf(page, 'Night ferry added')
    await expect(row).toBeVisible()
    await expect(row.getByRole('cell').first()).toHaveText('Created')
    await expect(page.getByText('1 new change at the top')).toBeAttached()
    await expect(row.getByRole('button', { name: /^Undo this change/ })).toBeVisible()
  })

  test('the editor’s link lists that editor’s changes only; the page passes axe', async ({
    page,
    api,
  }, testInfo) => {
    const good = await createAs(api, REPORTER, 'Tram line extended')
    await createAs(api, VANDAL, 'Cheap pills here')
    await editAs(api, VANDAL, good._id, 'Buy cheap pills')
    const vandal = await newestEditor(api)
    expect(vandal).toMatch(/^[0-9a-f]{10}$/)

    await page.goto('/changes')
    await expect(rows(page)).toHaveCount(4)
    await expectNoSeriousAxeViolations(page, testInfo, 'changes')
    // On a phone the table scrolls sideways within its own region, never the page.
    await page.setViewportSize({ width: 375, height: 800 })
    expect(await sidewaysOverflow(page)).toBe(0)
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

  test('Undo this change brings back the version before a vandal’s edit', async ({ page, api }) => {
    const post = await createAs(api, REPORTER, 'Harbour reopens on Monday')
    await editAs(api, VANDAL, post._id, 'Spam spam spam')

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
    api,
  }) => {
    for (let n = 1; n <= 26; n += 1) await createAs(api, REPORTER, `Report ${n}`)
    await page.goto('/changes')
    await expect(rows(page)).toHaveCount(25)
    await page.getByRole('button', { name: 'Load more' }).click()
    await expect(rows(page)).toHaveCount(27)
    await expect(rows(page).nth(25).getByRole('rowheader')).toBeFocused()
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0)
  })
})

withoutJavaScript('recent changes without JavaScript', () => {
  test('pages on through the real next-page link, one editor’s kept', async ({ page, api }) => {
    for (let n = 1; n <= 26; n += 1) await createAs(api, VANDAL, `Spam ${n}`)
    const vandal = await newestEditor(api)

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
