import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { tabTo } from './support/keyboard'
import { draft } from './support/news-api'
import { NOTHING_LOST_TEXTS } from './support/nothing-lost'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

const VERSION_RESTORED = 'that version is the current one again'

test.describe('recently deleted', () => {
  test('a deleted post is in Recently deleted, which passes axe, and Restore brings it back at its URL', async ({
    page,
    post,
  }, testInfo) => {
    await page.goto(`/news/${post._id}`)
    await page.getByRole('button', { name: 'Delete' }).click()
    await expect(toast(page, 'success', TOASTS.deleted)).toBeVisible()
    await expect(page).toHaveURL(/\/$/)

    await page.getByRole('contentinfo').getByRole('link', { name: 'Recently deleted' }).click()
    await expect(page).toHaveURL(/\/trash$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Recently deleted' })).toBeVisible()
    const deleted = page.getByRole('listitem').filter({ hasText: post.title })
    await expect(deleted).toContainText(`By ${post.author}`)
    await expectNoSeriousAxeViolations(page, testInfo, 'trash')

    await page.getByRole('button', { name: `Restore ${post.title}` }).click()

    await expect(toast(page, 'success', NOTHING_LOST_TEXTS.restored)).toBeVisible()
    await expect(deleted).toHaveCount(0)
    await page.getByRole('link', { name: post.title }).click()
    await expect(page).toHaveURL(new RegExp(`/news/${post._id}$`))
    await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible()

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click()
    await expect(page.getByRole('article', { name: post.title })).toBeVisible()
  })

  test('restores a post with the keyboard alone, and the focus lands on the way to it', async ({
    page,
    api,
  }) => {
    const post = await api.createDeleted(draft(5, { title: 'Lighthouse keeper retires' }))
    await page.goto('/trash')

    const restore = page.getByRole('button', { name: `Restore ${post.title}` })
    await tabTo(page, restore)
    await page.keyboard.press('Enter')

    await expect(toast(page, 'success', NOTHING_LOST_TEXTS.restored)).toBeVisible()
    const note = page.getByText('is back.')
    await expect(note).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('link', { name: post.title })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible()
  })
})

test.describe('history', () => {
  test('shows three versions with a word diff, and Restore this version brings the old text back', async ({
    page,
    api,
  }) => {
    const post = await api.create(
      draft(3, { title: 'Harbour reopens', body: 'Boats are back in the water.' }),
    )
    await api.edit(post._id, { title: 'Harbour reopens at dawn' })
    await api.edit(post._id, {
      body: 'Fishing boats are back in the calm water.',
    })

    await page.goto(`/news/${post._id}/history`)

    await expect(
      page.getByRole('heading', { level: 1, name: 'History of “Harbour reopens at dawn”' }),
    ).toBeVisible()
    const versions = page.getByRole('list', { name: 'Versions, newest first' })
    await expect(versions.getByRole('heading', { level: 2 })).toHaveText([
      'Version 3: Edited (current)',
      'Version 2: Edited',
      'Version 1: Created',
    ])
    const version = (n: number) => versions.getByRole('article', { name: `Version ${n}:` })
    await expect(version(3).locator('ins')).toHaveText(['Fishing boats', 'calm '])
    await expect(version(3).locator('del')).toHaveText(['Boats'])
    await expect(version(2).locator('ins')).toHaveText(['at dawn'])

    await version(1).getByRole('button', { name: 'Restore this version' }).click()

    await expect(toast(page, 'success', VERSION_RESTORED)).toBeVisible()
    await expect(version(4).getByRole('heading')).toHaveText(
      'Version 4: Restored from version 1 (current)',
    )
    await page.getByRole('link', { name: /^Back to the article/ }).click()
    await expect(page).toHaveURL(new RegExp(`/news/${post._id}$`))
    await expect(page.getByRole('heading', { level: 1, name: 'Harbour reopens' })).toBeVisible()
    await expect(page.getByText('Boats are back in the water.')).toBeVisible()
  })

  test('a long history comes a page at a time: Load more, from the keyboard, brings the older versions', async ({
    page,
    api,
  }) => {
    const PAGE = 50
    const post = await api.create(draft(5, { title: 'Harbour news 1' }))
    for (let n = 2; n <= PAGE + 6; n += 1) {
      await api.edit(post._id, { title: `Harbour news ${n}` })
    }
    // The API gives every version, newest first, over two pages.
    const { versions: all, pages } = await api.history(post._id)
    expect(pages).toBe(2)
    expect(all.map((version) => version.revision)).toEqual(
      Array.from({ length: PAGE + 6 }, (_, index) => PAGE + 6 - index),
    )

    await page.goto(`/news/${post._id}/history`)
    const versions = page.getByRole('list', { name: 'Versions, newest first' })
    const version = (n: number) => versions.getByRole('article', { name: `Version ${n}:` })
    await expect(versions.getByRole('article')).toHaveCount(PAGE)
    // The oldest version shown waits for the one before it to show its diff.
    await expect(version(7)).toContainText('Load more to see what this version changed')
    await expect(version(7).locator('ins')).toHaveCount(0)

    const loadMore = page.getByRole('button', { name: 'Load more' })
    await versions.getByRole('button', { name: 'Restore this version' }).last().focus()
    await page.keyboard.press('Tab')
    await expect(loadMore).toBeFocused()
    await page.keyboard.press('Enter')

    await expect(versions.getByRole('article')).toHaveCount(PAGE + 6)
    await expect(loadMore).toHaveCount(0)
    await expect(version(7).locator('ins')).toHaveText(['7'])
    await expect(version(7)).not.toContainText('Load more')
    await expect(version(1).getByRole('heading')).toHaveText('Version 1: Created')
    await expect(version(1).locator('ins, del')).toHaveCount(0)
  })
})

test('a screen whose code fails to load reloads once by itself, then shows a message with Reload inside the layout', async ({
  page,
}) => {
  // The trash screen's chunk cannot be fetched: gone after a redeploy, or the network dropped.
  await page.route(/\/assets\/trash\.page-[^/]*\.js$/, (route) => route.abort('failed'))
  let documents = 0
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents += 1
  })
  let loaded = 0
  page.on('load', () => {
    loaded += 1
  })

  await page.goto('/trash', { waitUntil: 'commit' })
  // The first page shows the message too, then reloads: read the message on the reloaded one.
  await expect.poll(() => loaded).toBe(2)

  const message = page.getByRole('main').getByRole('alert')
  await expect(message.getByRole('heading', { level: 1 })).toHaveText(
    'This page could not be loaded',
  )
  await expect(page.getByRole('banner')).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await expect(page.getByRole('contentinfo')).toBeVisible()
  // One automatic reload for a stale deploy, and no loop.
  expect(documents).toBe(2)

  await page.unroute(/\/assets\/trash\.page-[^/]*\.js$/)
  await message.getByRole('button', { name: 'Reload' }).click()

  await expect(page.getByRole('heading', { level: 1, name: 'Recently deleted' })).toBeVisible()
  expect(documents).toBe(3)
})
