import type { BrowserContext, Page, Request } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { newsForm, writePost } from './support/forms'
import { draft } from './support/news-api'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

/*
 * Many tabs of one browser. A browser opens at most six HTTP/1.1 connections to a site: were
 * each tab to hold a live stream of its own, a seventh tab would have none left to load with.
 * The tabs share one stream, which one of them holds and passes on to the others.
 */

const TABS = 10
/** The most a page may take to answer, with nine other tabs of the site open. */
const ANSWER_MS = 2_000

/**
 * The live streams (GET /api/events) open in a browser context, and the most that were open
 * at once. A tab the test closes no longer counts from that moment: its connections go with it.
 */
function watchStreams(context: BrowserContext) {
  const open = new Set<Request>()
  let most = 0
  context.on('request', (request) => {
    if (new URL(request.url()).pathname !== '/api/events') return
    open.add(request)
    most = Math.max(most, open.size)
  })
  const ended = (request: Request) => void open.delete(request)
  context.on('requestfinished', ended)
  context.on('requestfailed', ended)
  return {
    get open() {
      return open.size
    },
    get most() {
      return most
    },
    /** The tabs whose stream is open. */
    holders: (): Page[] => [...open].map((request) => request.frame().page()),
    async close(tab: Page) {
      for (const request of open) if (request.frame().page() === tab) open.delete(request)
      await tab.close()
    },
  }
}

test.describe('many tabs of one browser', () => {
  test('ten tabs all load and run, share one live stream, and stay live when its tab closes', async ({
    page,
    context,
    api,
  }) => {
    test.setTimeout(120_000)
    const post = await api.create(draft(1, { title: 'Harbour report' }))
    const streams = watchStreams(context)
    const errors: string[] = []

    const tabs: Page[] = []
    for (let opened = 0; opened < TABS; opened += 1) {
      const tab = opened === 0 ? page : await context.newPage()
      tab.on('pageerror', (error) => errors.push(error.message))
      await tab.goto('/', { timeout: 10_000 })
      tabs.push(tab)
    }
    await expect.poll(() => streams.open).toBe(1)

    // The tenth tab adds a post: its form's code and the API answer at once.
    const tenth = tabs[TABS - 1] as Page
    await tenth.getByRole('navigation').getByRole('link', { name: 'New News' }).click()
    await expect(newsForm(tenth).title).toBeEditable({ timeout: ANSWER_MS })
    await writePost(tenth, draft(2, { title: 'Ferry timetable changes' }))
    await expect(toast(tenth, 'success', TOASTS.created)).toBeVisible({ timeout: ANSWER_MS })

    // A change made elsewhere reaches every tab.
    await api.edit(post._id, { title: 'Harbour report, corrected' })
    for (const tab of tabs) {
      await expect(tab.getByRole('article', { name: 'Harbour report, corrected' })).toBeVisible()
    }

    // The tab that holds the stream closes: another takes over, and the rest stay live.
    const [holder] = streams.holders()
    if (holder === undefined) throw new Error('no tab holds the stream')
    await streams.close(holder)
    const staying = tabs.filter((tab) => tab !== holder)
    await api.edit(post._id, { title: 'Harbour report, second correction' })
    for (const tab of staying) {
      await expect(
        tab.getByRole('article', { name: 'Harbour report, second correction' }),
      ).toBeVisible()
    }
    await expect.poll(() => streams.open).toBe(1)
    expect(streams.holders()).not.toContain(holder)

    expect(streams.most, 'live streams open at once in the browser').toBe(1)
    expect(errors).toEqual([])
  })

  test('where the browser has no Web Locks, each tab follows a stream of its own', async ({
    page,
    context,
    api,
  }) => {
    await context.addInitScript(() => {
      Reflect.deleteProperty(Navigator.prototype, 'locks')
    })
    const post = await api.create(draft(1, { title: 'Harbour report' }))
    const streams = watchStreams(context)
    const other = await context.newPage()
    for (const tab of [page, other]) await tab.goto('/')
    await expect.poll(() => streams.open).toBe(2)

    await api.edit(post._id, { title: 'Harbour report, corrected' })
    for (const tab of [page, other]) {
      await expect(tab.getByRole('article', { name: 'Harbour report, corrected' })).toBeVisible()
    }
  })
})
