import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { draft, type NewsItem } from './support/news-api'
import { startNewsWire, type NewsWireServer } from './support/newswire-server'
import { cards, openLive } from './support/screens'

/*
 * Live updates in real Chromium, across two servers on one database, as behind a load balancer:
 * the page is served by the second server (`other`) and follows its stream, while every change
 * is made through the first one's API, as another visitor's would be.
 */

const DELETED = 'This post was deleted.'
/** Reconnecting waits 1 s, 2 s, 4 s … with jitter, while a server starts again. */
const RECONNECT_MS = 20_000

let other: NewsWireServer | undefined
/** The first server's database, which the second one shares. */
let shared = ''

test.beforeAll(async ({ newsWire }) => {
  shared = newsWire.databaseUrl
  other = await startNewsWire(undefined, { DATABASE_URL: shared })
})

test.afterAll(async () => {
  await other?.stop()
})

function otherServer(): NewsWireServer {
  if (other === undefined) throw new Error('the second server did not start')
  return other
}

/** Opens `path` on the second server, and waits until the page follows its live stream. */
function openOnOther(page: Page, path: string): Promise<void> {
  return openLive(page, `${otherServer().origin}${path}`)
}

test.describe('live updates', () => {
  test('a post created elsewhere waits behind "1 new post", and the button shows it at the top', async ({
    page,
    api,
  }) => {
    await api.createMany([draft(1), draft(2)])
    await openOnOther(page, '/')
    await expect(cards(page)).toHaveCount(2)
    const before = await cards(page).allTextContents()

    const fresh: NewsItem = await api.create(draft(3, { title: 'Night ferry added' }))

    const button = page.getByRole('button', { name: '1 new post' })
    await expect(button).toBeVisible()
    // Nothing moved under the reader.
    expect(await cards(page).allTextContents()).toEqual(before)
    await button.click()

    await expect(cards(page)).toHaveCount(3)
    await expect(cards(page).first()).toHaveAccessibleName(fresh.title)
    await expect(button).toHaveCount(0)
    // The first new card takes the focus: the grid's one Tab stop, its keys walk on from there.
    await expect(cards(page).first()).toBeFocused()
  })

  test('an edit elsewhere updates its card in place, and the open article offers the new version', async ({
    page,
    api,
  }) => {
    const [post] = await api.createMany([draft(1), draft(2)])
    await openOnOther(page, '/')
    await api.edit(post._id, { title: 'Harbour report, corrected' })
    await expect(page.getByRole('article', { name: 'Harbour report, corrected' })).toBeVisible()
    await expect(cards(page)).toHaveCount(2)

    await openOnOther(page, `/news/${post._id}`)
    await api.edit(post._id, { body: 'The cargo was counted a third time.' })

    await expect(page.getByText('This post was edited elsewhere.')).toBeVisible()
    await expect(page.getByText('The cargo was counted a third time.')).toHaveCount(0)
    await page.getByRole('button', { name: 'Show the new version' }).click()
    await expect(page.getByText('The cargo was counted a third time.')).toBeVisible()
    await expect(page.getByText('This post was edited elsewhere.')).toHaveCount(0)
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused()
  })

  test('a delete elsewhere marks the card and the open article, and a restore lifts the mark', async ({
    page,
    api,
  }) => {
    const [first, second] = await api.createMany([draft(1), draft(2)])
    await openOnOther(page, '/')
    await api.delete(first._id)
    const card = page.locator('.news-card-slot').filter({ hasText: first.title })
    await expect(card).toContainText(DELETED)
    await expect(cards(page)).toHaveCount(2)

    await openOnOther(page, `/news/${second._id}`)
    await api.delete(second._id)
    await expect(page.getByText(DELETED)).toBeVisible()
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0)

    await api.restore(second._id)
    await expect(page.getByText(DELETED)).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible()
  })

  test('a form being edited keeps what is typed when the post changes elsewhere', async ({
    page,
    api,
    post,
  }) => {
    await openOnOther(page, `/news/${post._id}/edit`)
    const title = page.getByLabel('Title')
    await title.fill('My own headline')

    await api.edit(post._id, { title: 'Their headline', body: 'Their body.' })

    await expect(page.getByText(/This post was edited elsewhere\./)).toBeVisible()
    await expect(title).toHaveValue('My own headline')
    await expect(page.getByLabel('Body')).toHaveValue(post.body)
  })

  test('after its server restarts, the page reconnects and catches up on what it missed', async ({
    page,
    api,
    post,
  }) => {
    test.setTimeout(60_000)
    await openOnOther(page, '/')
    const port = new URL(otherServer().origin).port

    await otherServer().stop()
    await api.create(draft(2, { title: 'Made while the stream was down' }))
    await api.edit(post._id, { title: 'Edited while the stream was down' })
    other = await startNewsWire(undefined, { DATABASE_URL: shared, PORT: port })

    await expect(page.getByRole('button', { name: '1 new post' })).toBeVisible({
      timeout: RECONNECT_MS,
    })
    await expect(
      page.getByRole('article', { name: 'Edited while the stream was down' }),
    ).toBeVisible()
    await page.getByRole('button', { name: '1 new post' }).click()
    await expect(cards(page).first()).toHaveAccessibleName('Made while the stream was down')
  })
})
