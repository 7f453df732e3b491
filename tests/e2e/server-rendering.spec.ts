import type { ConsoleMessage, Page } from '@playwright/test'
import { expect, test, withoutJavaScript } from './support/fixtures'
import { draft } from './support/news-api'
import { draftIn, DRAFT_KEYS, NOTHING_LOST_TEXTS } from './support/nothing-lost'
import { cards, expectHydrated, expectSiteFrame } from './support/screens'
import { LIMITS, NEWS_MESSAGES, PAGE_SIZE } from './support/spec-texts'
import { toast } from './support/toasts'

/** The address of the next page that the page at `path` links to, as it arrives rendered. */
async function nextPageOf(page: Page, path: string): Promise<string> {
  const response = await page.request.get(path)
  const href = /<a class="button" href="([^"]+)" rel="next">/.exec(await response.text())?.[1]
  if (href === undefined) throw new Error(`${path} links to no next page`)
  return href.replace(/&amp;/g, '&')
}

/**
 * The titles of the main region's items in reading order: `selector`'s, or, in the news grid
 * (react-masonry-css, column by column in the DOM), the order its feed owns its cards in.
 */
function titlesInReadingOrder(page: Page, selector: string): Promise<string[]> {
  return page.getByRole('main').evaluate((main, titles) => {
    const owned = main.querySelector('[role="feed"]')?.getAttribute('aria-owns')
    const items =
      owned == null
        ? [...main.querySelectorAll(titles)]
        : owned.split(' ').map((id) => document.getElementById(id)?.querySelector('h2'))
    return items.map((title) => title?.textContent ?? '')
  }, selector)
}

/**
 * Everything the page writes to the console at warning level or above, and page errors; but
 * not the image service failing to load, which is out of reach here (no internet).
 */
function recordConsole(page: Page): string[] {
  const messages: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (message.text().startsWith('Failed to load resource: net::')) return
    if (message.type() === 'error' || message.type() === 'warning') {
      messages.push(`${message.type()}: ${message.text()}`)
    }
  })
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`))
  return messages
}

/** Holds the forms' code back until the returned function is called: the page stays the server's. */
async function holdFormCode(page: Page): Promise<() => void> {
  let release = () => undefined as void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/assets\/news-form\.page-.*\.js$/, async (route) => {
    await held
    await route.continue()
  })
  return release
}

test.describe('pages rendered on the server', () => {
  test("hydrate on every route without a console warning or error, in the site's frame", async ({
    page,
    api,
  }) => {
    const [item, gone] = await api.createNumbered(PAGE_SIZE + 2)
    if (item === undefined || gone === undefined) throw new Error('no posts')
    await api.delete(gone._id)
    const routes = [
      '/',
      await nextPageOf(page, '/'),
      `/news/${item._id}`,
      `/news/${gone._id}`,
      `/news/${item._id}/edit`,
      `/news/${item._id}/history`,
      '/news/new',
      '/contact',
      '/trash',
      '/search?q=harbour',
      await nextPageOf(page, '/search?q=harbour'),
    ]
    for (const route of routes) {
      const messages = recordConsole(page)
      await page.goto(route)
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeAttached()
      // Lazy screens hydrate once their code arrives: wait for the network to settle.
      await page.waitForLoadState('networkidle')
      await expectSiteFrame(page)
      // The browser reports the page's own 410 (a post in the trash) as a failed load.
      const goneStatus = route === `/news/${gone._id}` ? /status of 410 \(Gone\)$/ : undefined
      expect(
        messages.filter((message) => goneStatus === undefined || !goneStatus.test(message)),
        route,
      ).toEqual([])
      page.removeAllListeners('console')
      page.removeAllListeners('pageerror')
    }
  })

  test('fetch the app only once the page has painted', async ({ page }) => {
    await page.goto('/')
    const timing = await page.evaluate(() => {
      const [paint] = performance.getEntriesByName('first-contentful-paint')
      const scripts = performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      return { paint: paint?.startTime, scripts: scripts.map((entry) => entry.startTime) }
    })
    expect(timing.paint).toBeGreaterThan(0)
    expect(timing.scripts.length).toBeGreaterThan(0)
    expect(Math.min(...timing.scripts)).toBeGreaterThan(timing.paint ?? Infinity)
  })

  test('are marked as run by the app only once their screen has hydrated', async ({
    page,
    post,
  }) => {
    const release = await holdFormCode(page)
    const appRuns = page.waitForRequest(/\/assets\/live-updates\.provide-[\w-]+\.js$/)
    await page.goto(`/news/${post._id}/edit`, { waitUntil: 'commit' })

    // The app's own effects have run (they load the live updates), but not the form's.
    await appRuns
    await expect(page.locator('html[data-app]')).not.toBeAttached()
    release()
    await expectHydrated(page)
    await expect(page.getByRole('button', { name: 'Edit news' })).toBeEnabled()
  })

  test('keep what was typed before the app ran, as typed: a draft, touched fields', async ({
    page,
  }) => {
    const release = await holdFormCode(page)
    await page.goto('/news/new', { waitUntil: 'commit' })
    const title = page.getByLabel('Title')
    const body = page.getByLabel('Body')
    const submit = page.getByRole('button', { name: 'Add news' })
    await title.fill('Typed before the app ran')
    await body.fill('A body typed early.')
    await page.getByLabel('Author').fill('A'.repeat(LIMITS.author + 1))
    // The form is still the server's HTML: its button waits for the app.
    await expect(submit).toBeDisabled()
    release()

    await expect(submit).toBeEnabled()
    // Typed and left, as far as the form can tell: its message shows without a blur.
    await expect(page.getByText(NEWS_MESSAGES.authorTooLong)).toBeVisible()
    await page.getByLabel('Author').fill('Ada')
    await expect(title).toHaveValue('Typed before the app ran')
    await expect(body).toHaveValue('A body typed early.')
    await expect
      .poll(() => draftIn(page, DRAFT_KEYS.add))
      .toMatchObject({ values: { title: 'Typed before the app ran', body: 'A body typed early.' } })
  })

  test('keep a body typed into the edit form before the app ran, over the stored one, through a conflict', async ({
    page,
    api,
  }) => {
    const post = await api.create(draft(1, { body: 'The stored body.' }))
    const typed = 'A body typed before the app ran.'
    const release = await holdFormCode(page)
    await page.goto(`/news/${post._id}/edit`, { waitUntil: 'commit' })
    const main = page.getByRole('main')
    const [title, body] = [
      main.getByLabel('Title', { exact: true }),
      main.getByLabel('Body', { exact: true }),
    ]
    const save = main.getByRole('button', { name: 'Edit news' })
    await body.fill(typed)
    await api.edit(post._id, { title: 'Their title' })
    release()
    await expectHydrated(page)
    await expect(save).toBeEnabled()

    await expect(body).toHaveValue(typed)
    await expect
      .poll(() => draftIn(page, DRAFT_KEYS.edit(post._id)))
      .toMatchObject({ values: { body: typed } })
    // The counter counts it, as it would count typing.
    await expect(main.getByText(`${typed.length}/${LIMITS.body}`)).toBeVisible()
    await save.click()
    const conflict = toast(page, 'error', NOTHING_LOST_TEXTS.editConflict)
    await conflict.getByRole('button', { name: NOTHING_LOST_TEXTS.review }).click()

    await expect(body).toHaveValue(typed)
    await expect(title).toHaveValue('Their title')
    expect(await draftIn(page, DRAFT_KEYS.edit(post._id))).toMatchObject({
      values: { body: typed },
    })
  })
})

withoutJavaScript('pages without JavaScript', () => {
  test('show an article in full', async ({ page, post }) => {
    await page.goto(`/news/${post._id}`)

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title)
    await expect(page.getByText(post.body)).toBeVisible()
    await expect(page.getByText(/^Created By: /)).toContainText(post.author)
    await expect(page).toHaveTitle(`${post.title} | NewsWire`)
  })

  test('show the trash and a post’s history', async ({ page, api }) => {
    const [kept, gone] = await api.createMany([draft(1), draft(2)])
    await api.edit(kept._id, { title: 'Harbour report, corrected' })
    await api.delete(gone._id)

    await page.goto('/trash')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recently deleted')
    await expect(page.getByRole('heading', { level: 2, name: gone.title })).toBeVisible()
    await expect(page.getByText(/Loading/)).toHaveCount(0)

    await page.goto(`/news/${kept._id}/history`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'History of “Harbour report, corrected”',
    )
    await expect(page.getByRole('article')).toHaveCount(2)
    await expect(page.getByRole('article').first()).toContainText('Version 2: Edited')
  })

  test('reach every post of /, the trash and a search by their next-page links', async ({
    page,
    api,
  }) => {
    const posts = await api.createNumbered(2 * PAGE_SIZE + 2)
    const [trashed, live] = [posts.slice(0, PAGE_SIZE + 1), posts.slice(PAGE_SIZE + 1)]
    for (const post of trashed) await api.delete(post._id)
    const newestFirst = (list: typeof posts) => list.map((post) => post.title).reverse()

    for (const [path, expected, titles] of [
      ['/', newestFirst(live), 'article h2'],
      // Newest deletion first: the last deleted first.
      ['/trash', newestFirst(trashed), 'li h2'],
      ['/search?q=harbour', newestFirst(live), 'article h2'],
    ] as const) {
      await page.goto(path)
      const seen: string[] = []
      for (let pages = 0; pages < 5; pages += 1) {
        seen.push(...(await titlesInReadingOrder(page, titles)))
        const next = page.getByRole('link', { name: 'Next page' })
        if ((await next.count()) === 0) break
        await next.click()
        await expect(page).toHaveURL(/[?&]cursor=/)
      }
      expect(seen, path).toEqual(expected)
    }
    await page.goto('/')
    await expect(cards(page).getByRole('link', { name: /^Read More/ })).toHaveCount(PAGE_SIZE)
  })

  test('say when a page is not there, with a link home', async ({ page }) => {
    const response = await page.goto('/news/no-such-post')

    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not available')
    await expect(
      page.getByRole('main').getByRole('link', { name: 'See the latest news' }),
    ).toBeVisible()
  })
})
