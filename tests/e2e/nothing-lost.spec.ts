import type { Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { draft } from './support/news-api'
import { editThroughApi } from './support/history-api'
import {
  draftIn,
  DRAFT_KEYS,
  newsForm,
  NOTHING_LOST_TEXTS as TEXTS,
  startLimitedNewsWire,
  storedPost,
} from './support/nothing-lost'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

/** The If-Match header of the next request of `method` to the post. */
function nextIfMatch(page: Page, method: string, id: string): Promise<string | null> {
  return page
    .waitForRequest(
      (request) => request.method() === method && request.url().endsWith(`/api/news/${id}`),
    )
    .then((request) => request.headerValue('if-match'))
}

/**
 * Expects the conflict toast `text` on the article, which shows, as stored, the title someone
 * else saved; answers the toast.
 */
async function expectTheirsKept(page: Page, origin: string, id: string, text: string) {
  const conflict = toast(page, 'error', text)
  await expect(conflict).toBeVisible()
  await expect(page).toHaveURL(`/news/${id}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Their title')
  expect(await storedPost(origin, id)).toMatchObject({ title: 'Their title' })
  return conflict
}

test.describe('undo delete', () => {
  test('the delete toast offers Undo, which brings the post back under the same address', async ({
    page,
    api,
  }, testInfo) => {
    const [kept, deleted] = await api.createMany([draft(1), draft(2)])
    await page.goto(`/news/${deleted!._id}`)

    await page.getByRole('button', { name: 'Delete' }).click()

    const deletedToast = toast(page, 'success', TOASTS.deleted)
    await expect(deletedToast).toBeVisible()
    await expect(page).toHaveURL('/')
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { name: kept!.title })).toBeVisible()
    await expect(main.getByRole('heading', { name: deleted!.title })).toHaveCount(0)
    await expectNoSeriousAxeViolations(page, testInfo, 'delete-toast-with-undo')

    await deletedToast.getByRole('button', { name: TEXTS.undo }).click()

    await expect(toast(page, 'success', TEXTS.restored)).toBeVisible()
    await expect(main.getByRole('article').getByRole('heading')).toHaveText([
      deleted!.title,
      kept!.title,
    ])
    expect(await storedPost(api.origin, deleted!._id)).toMatchObject({ title: deleted!.title })
    await page.goto(`/news/${deleted!._id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(deleted!.title)
  })
})

test.describe('edit conflicts', () => {
  test('an edit over a version saved meanwhile is refused, reviewed beside it, and saved on purpose', async ({
    page,
    api,
  }, testInfo) => {
    const post = await api.create(draft(1))
    await page.goto(`/news/${post._id}/edit`)
    const fields = newsForm(page)
    await expect(fields.title).toHaveValue(post.title)
    await fields.title.fill('My own title')
    const theirs = await editThroughApi(api.origin, post._id, { title: 'Their title' })
    expect(theirs.revision).toBe(2)
    // The live stream tells the form; its notice moves the button, so save once it is there.
    await expect(page.getByText(TEXTS.editedElsewhere)).toBeVisible()

    const firstSave = nextIfMatch(page, 'PATCH', post._id)
    await page.getByRole('button', { name: 'Edit news' }).click()

    expect(await firstSave).toBe('"rev-1"')
    const conflict = await expectTheirsKept(page, api.origin, post._id, TEXTS.editConflict)

    await conflict.getByRole('button', { name: TEXTS.review }).click()

    await expect(page).toHaveURL(`/news/${post._id}/edit`)
    await expect(fields.title).toHaveValue('My own title')
    const meanwhile = page.getByRole('complementary', { name: TEXTS.savedMeanwhile })
    await expect(meanwhile).toContainText('Their title')
    await expect(meanwhile).toContainText(post.author)
    await expectNoSeriousAxeViolations(page, testInfo, 'edit-conflict-review')

    const overwrite = nextIfMatch(page, 'PATCH', post._id)
    await page.getByRole('button', { name: 'Edit news' }).click()

    expect(await overwrite).toBe('"rev-2"')
    await expect(toast(page, 'success', TOASTS.edited)).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My own title')
    expect(await storedPost(api.origin, post._id)).toMatchObject({
      title: 'My own title',
      revision: 3,
    })
    expect(await draftIn(page, DRAFT_KEYS.edit(post._id))).toBeNull()
  })

  test('a delete from a stale copy deletes nothing, shows the stored post and offers its history', async ({
    page,
    api,
  }) => {
    const post = await api.create(draft(1))
    await page.goto(`/news/${post._id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title)
    await editThroughApi(api.origin, post._id, { title: 'Their title' })
    // The live stream tells the page; its notice moves the button, so delete once it is there.
    await expect(page.getByText(TEXTS.articleEditedElsewhere, { exact: true })).toBeVisible()

    const remove = nextIfMatch(page, 'DELETE', post._id)
    await page.getByRole('button', { name: 'Delete' }).click()

    expect(await remove).toBe('"rev-1"')
    const conflict = await expectTheirsKept(page, api.origin, post._id, TEXTS.deleteConflict)

    await conflict.getByRole('button', { name: TEXTS.review }).click()
    await expect(page).toHaveURL(`/news/${post._id}/history`)
  })

  test('the article links to its history', async ({ page, api }) => {
    const post = await api.create(draft(1))
    await page.goto(`/news/${post._id}`)
    await expect(page.getByRole('link', { name: 'History' })).toHaveAttribute(
      'href',
      `/news/${post._id}/history`,
    )
  })
})

test.describe('drafts survive a reload', () => {
  test('the add form keeps its text across a reload until the post is created', async ({
    page,
    api,
  }) => {
    const post = draft(7)
    await page.goto('/news/new')
    const fields = newsForm(page)
    await fields.title.fill(post.title)
    await fields.author.fill(post.author)
    await expect.poll(() => draftIn(page, DRAFT_KEYS.add)).not.toBeNull()

    await page.reload()

    await expect(fields.title).toHaveValue(post.title)
    await expect(fields.author).toHaveValue(post.author)
    await expect(page.getByRole('button', { name: TEXTS.discardDraft })).toBeVisible()
    await fields.body.fill(post.body)
    await page.getByRole('button', { name: 'Add news' }).click()

    await expect(toast(page, 'success', TOASTS.created)).toBeVisible()
    expect(await draftIn(page, DRAFT_KEYS.add)).toBeNull()
    expect((await api.list()).map((item) => item.title)).toEqual([post.title])
    await page.goto('/news/new')
    await expect(fields.title).toHaveValue('')
    await expect(page.getByRole('button', { name: TEXTS.discardDraft })).toHaveCount(0)
  })

  test('Discard draft empties the add form and forgets the draft', async ({ page }) => {
    await page.goto('/news/new')
    await newsForm(page).title.fill('Half a thought')
    await expect.poll(() => draftIn(page, DRAFT_KEYS.add)).not.toBeNull()
    await page.reload()
    await expect(newsForm(page).title).toHaveValue('Half a thought')

    await page.getByRole('button', { name: TEXTS.discardDraft }).click()

    await expect(newsForm(page).title).toHaveValue('')
    await expect(page.getByRole('button', { name: TEXTS.discardDraft })).toHaveCount(0)
    await expect.poll(() => draftIn(page, DRAFT_KEYS.add)).toBeNull()
  })

  test('the edit form keeps its text across a reload, over the stored post, until the save succeeds', async ({
    page,
    api,
  }) => {
    const post = await api.create(draft(1))
    await page.goto(`/news/${post._id}/edit`)
    const fields = newsForm(page)
    await expect(fields.title).toHaveValue(post.title)
    await expect(page.getByRole('button', { name: 'Edit news' })).toBeEnabled()
    await fields.body.fill('A body written before the reload.')
    await expect.poll(() => draftIn(page, DRAFT_KEYS.edit(post._id))).not.toBeNull()

    await page.reload()

    await expect(fields.body).toHaveValue('A body written before the reload.')
    await expect(fields.title).toHaveValue(post.title)
    await expect(page.getByRole('complementary', { name: TEXTS.savedMeanwhile })).toHaveCount(0)
    await page.getByRole('button', { name: 'Edit news' }).click()

    await expect(toast(page, 'success', TOASTS.edited)).toBeVisible()
    expect(await draftIn(page, DRAFT_KEYS.edit(post._id))).toBeNull()
    expect(await storedPost(api.origin, post._id)).toMatchObject({
      body: 'A body written before the reload.',
    })
  })

  test('the contact form keeps its text after the tab is closed, until the message is sent', async ({
    page,
    context,
    emailJs,
  }) => {
    await page.goto('/contact')
    const main = page.getByRole('main')
    await main.getByLabel('Name').fill('Eve Ford')
    await main.getByLabel('Email Address').fill('eve@example.org')
    await main.getByLabel('Your Message').fill('Please cover the bridge reopening.')
    await page.close()

    const again = await context.newPage()
    await again.goto('/contact')
    const form = again.getByRole('main')
    await expect(form.getByLabel('Your Message')).toHaveValue('Please cover the bridge reopening.')
    await expect(form.getByLabel('Name')).toHaveValue('Eve Ford')
    await form.getByRole('button', { name: 'Submit' }).click()

    await expect(toast(again, 'success', TOASTS.contactSent)).toBeVisible()
    await emailJs.waitForRequests(1)
    expect(await draftIn(again, DRAFT_KEYS.contact)).toBeNull()
    await again.reload()
    await expect(again.getByRole('main').getByLabel('Your Message')).toHaveValue('')
  })
})

test.describe('the write limit', () => {
  test('a 429 says when to try again, from Retry-After, and the form keeps its text', async ({
    page,
    extraHTTPHeaders,
  }) => {
    const limited = await startLimitedNewsWire(1)
    try {
      // The one write a minute this address may make, spent by another tab (from the address
      // the page has: its X-Forwarded-For).
      const spent = await fetch(`${limited.origin}/api/news`, {
        method: 'POST',
        headers: { ...extraHTTPHeaders, 'Content-Type': 'application/json' },
        body: JSON.stringify(draft(1)),
      })
      expect(spent.status).toBe(201)
      const post = draft(2)
      await page.goto(`${limited.origin}/news/new`)
      const fields = newsForm(page)
      await fields.title.fill(post.title)
      await fields.author.fill(post.author)
      await fields.body.fill(post.body)

      const answer = page.waitForResponse(
        (response) =>
          response.request().method() === 'POST' && response.url().endsWith('/api/news'),
      )
      await page.getByRole('button', { name: 'Add news' }).click()

      const refused = await answer
      expect(refused.status()).toBe(429)
      const seconds = Number(await refused.headerValue('retry-after'))
      expect(seconds).toBeGreaterThan(0)
      await expect(toast(page, 'error', TEXTS.rateLimited(seconds))).toBeVisible()
      await expect(fields.title).toHaveValue(post.title)
      await expect(fields.body).toHaveValue(post.body)
      await expect(page).toHaveURL(`${limited.origin}/news/new`)
    } finally {
      await limited.stop()
    }
  })
})

test.describe('redirects replace the history entry', () => {
  test('Back after adding a post skips the add form', async ({ page }) => {
    const post = draft(3)
    await page.goto('/contact')
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'New News' })
      .click()
    const fields = newsForm(page)
    await fields.title.fill(post.title)
    await fields.author.fill(post.author)
    await fields.body.fill(post.body)
    await page.getByRole('button', { name: 'Add news' }).click()
    await expect(toast(page, 'success', TOASTS.created)).toBeVisible()
    await expect(page).toHaveURL('/')

    await page.goBack()

    await expect(page).toHaveURL('/contact')
  })

  test('Back after deleting a post skips the deleted article', async ({ page, api }) => {
    const post = await api.create(draft(1))
    await page.goto('/contact')
    await page.goto(`/news/${post._id}`)
    await page.getByRole('button', { name: 'Delete' }).click()
    await expect(page).toHaveURL('/')

    await page.goBack()

    await expect(page).toHaveURL('/contact')
  })

  test('Back after an unknown address skips it, and never lands in the redirect again', async ({
    page,
  }) => {
    await page.goto('/contact')
    await page.goto('/no/such/page')
    await expect(toast(page, 'error', TOASTS.notAvailable)).toBeVisible()
    await expect(page).toHaveURL('/')

    await page.goBack()

    await expect(page).toHaveURL('/contact')
    await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible()
  })
})
