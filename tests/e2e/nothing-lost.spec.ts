import type { Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { contactForm, expectFieldValues, fillFields, newsForm, writePost } from './support/forms'
import { tabTo } from './support/keyboard'
import { draft, type NewsApi } from './support/news-api'
import { draftIn, DRAFT_KEYS, NOTHING_LOST_TEXTS as TEXTS } from './support/nothing-lost'
import { startNewsWire } from './support/newswire-server'
import { TOASTS } from './support/spec-texts'
import { expectNotAvailableAtHome, toast } from './support/toasts'

/** The If-Match header of the next request of `method` to the post. */
function nextIfMatch(page: Page, method: string, id: string): Promise<string | null> {
  return page
    .waitForRequest(
      (request) => request.method() === method && request.url().endsWith(`/api/news/${id}`),
    )
    .then((request) => request.headerValue('if-match'))
}

/**
 * Clicks `button` over the first version of post `id`, which someone else has since retitled
 * 'Their title'. Expects the request to name that first version, the conflict toast `text` on
 * the article, which shows their title, as stored; then opens the toast's Review.
 */
async function expectRefusedOverTheirs(
  page: Page,
  api: NewsApi,
  [id, method, button]: readonly [string, string, string],
  text: string,
): Promise<void> {
  const sent = nextIfMatch(page, method, id)
  await page.getByRole('button', { name: button }).click()

  expect(await sent).toBe('"rev-1"')
  const conflict = toast(page, 'error', text)
  await expect(conflict).toBeVisible()
  await expect(page).toHaveURL(`/news/${id}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Their title')
  expect(await api.find(id)).toMatchObject({ title: 'Their title' })
  await conflict.getByRole('button', { name: TEXTS.review }).click()
}

test('the delete toast is announced, reached in a few Tab presses, stays, and its Undo brings the post back under the same address', async ({
  page,
  api,
}, testInfo) => {
  const [kept, deleted] = await api.createMany([draft(1), draft(2)])
  await page.goto(`/news/${deleted._id}`)

  await tabTo(page, page.getByRole('button', { name: 'Delete' }))
  await page.keyboard.press('Enter')

  const deletedToast = toast(page, 'success', TOASTS.deleted)
  await expect(deletedToast).toBeVisible()
  // Announced: the toast is an alert, read out as it comes.
  await expect(deletedToast).toHaveAttribute('role', 'alert')
  await expect(page).toHaveURL('/')
  const main = page.getByRole('main')
  await expect(main.getByRole('heading', { name: kept.title })).toBeVisible()
  await expect(main.getByRole('heading', { name: deleted.title })).toHaveCount(0)
  expect(await api.find(deleted._id)).toBeUndefined()
  const undo = deletedToast.getByRole('button', { name: TEXTS.undo })
  await tabTo(page, undo, 5)
  await expectNoSeriousAxeViolations(page, testInfo, 'delete-toast-with-undo')

  // No time limit (WCAG 2.2.1): it is still there well after the 10 s it used to last.
  await page.waitForTimeout(11_000)
  await expect(undo).toBeFocused()
  await page.keyboard.press('Enter')

  await expect(toast(page, 'success', TEXTS.restored)).toBeVisible()
  await expect(main.getByRole('article').getByRole('heading')).toHaveText([
    deleted.title,
    kept.title,
  ])
  expect(await api.find(deleted._id)).toMatchObject({ title: deleted.title })
  await page.goto(`/news/${deleted._id}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(deleted.title)
})

test.describe('edit conflicts', () => {
  test('an edit over a version saved meanwhile is refused, reviewed beside it, and saved on purpose', async ({
    page,
    api,
    post,
  }, testInfo) => {
    await page.goto(`/news/${post._id}/edit`)
    const fields = newsForm(page)
    await expect(fields.title).toHaveValue(post.title)
    await fields.title.fill('My own title')
    const theirs = await api.edit(post._id, { title: 'Their title' })
    expect(theirs.revision).toBe(2)
    // The live stream tells the form; its notice moves the button, so save once it is there.
    await expect(page.getByText(TEXTS.editedElsewhere)).toBeVisible()

    const save = [post._id, 'PATCH', 'Edit news'] as const
    await expectRefusedOverTheirs(page, api, save, TEXTS.editConflict)

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
    expect(await api.find(post._id)).toMatchObject({
      title: 'My own title',
      revision: 3,
    })
    expect(await draftIn(page, DRAFT_KEYS.edit(post._id))).toBeNull()
  })

  test('a delete from a stale copy deletes nothing, shows the stored post and offers its history', async ({
    page,
    api,
    post,
  }) => {
    await page.goto(`/news/${post._id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title)
    await api.edit(post._id, { title: 'Their title' })
    // The live stream tells the page; its notice moves the button, so delete once it is there.
    await expect(page.getByText(TEXTS.articleEditedElsewhere, { exact: true })).toBeVisible()

    await expectRefusedOverTheirs(page, api, [post._id, 'DELETE', 'Delete'], TEXTS.deleteConflict)

    await expect(page).toHaveURL(`/news/${post._id}/history`)
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
    await fillFields(fields, { title: post.title, author: post.author })
    await expect.poll(() => draftIn(page, DRAFT_KEYS.add)).not.toBeNull()

    await page.reload()

    await expectFieldValues(fields, { title: post.title, author: post.author })
    await expect(page.getByRole('button', { name: TEXTS.discardDraft })).toBeVisible()
    await writePost(page, { body: post.body })

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
    post,
  }) => {
    await page.goto(`/news/${post._id}/edit`)
    const fields = newsForm(page)
    await expect(fields.title).toHaveValue(post.title)
    await expect(fields.save).toBeEnabled()
    await fields.body.fill('A body written before the reload.')
    await expect.poll(() => draftIn(page, DRAFT_KEYS.edit(post._id))).not.toBeNull()

    await page.reload()

    await expect(fields.body).toHaveValue('A body written before the reload.')
    await expect(fields.title).toHaveValue(post.title)
    await expect(page.getByRole('complementary', { name: TEXTS.savedMeanwhile })).toHaveCount(0)
    await fields.save.click()

    await expect(toast(page, 'success', TOASTS.edited)).toBeVisible()
    expect(await draftIn(page, DRAFT_KEYS.edit(post._id))).toBeNull()
    expect(await api.find(post._id)).toMatchObject({
      body: 'A body written before the reload.',
    })
  })

  test('the contact form keeps its text after the tab is closed, until the message is sent', async ({
    page,
    context,
    emailJs,
  }) => {
    const eve = { name: 'Eve Ford', message: 'Please cover the bridge reopening.' }
    await page.goto('/contact')
    await fillFields(contactForm(page), { ...eve, email: 'eve@example.org' })
    await page.close()

    const again = await context.newPage()
    await again.goto('/contact')
    await expectFieldValues(contactForm(again), eve)
    await again.getByRole('button', { name: 'Submit' }).click()

    await expect(toast(again, 'success', TOASTS.contactSent)).toBeVisible()
    await expect.poll(() => emailJs.received).toHaveLength(1)
    expect(await draftIn(again, DRAFT_KEYS.contact)).toBeNull()
    await again.reload()
    await expect(contactForm(again).message).toHaveValue('')
  })
})

test('at the write limit a 429 says when to try again, from Retry-After, and the form keeps its text', async ({
  page,
  extraHTTPHeaders,
}) => {
  const limited = await startNewsWire(undefined, { WRITE_RATE_LIMIT: '1' })
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
    const answer = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/api/news'),
    )
    await writePost(page, post)

    const refused = await answer
    expect(refused.status()).toBe(429)
    const seconds = Number(await refused.headerValue('retry-after'))
    expect(seconds).toBeGreaterThan(0)
    await expect(toast(page, 'error', TEXTS.rateLimited(seconds))).toBeVisible()
    await expectFieldValues(newsForm(page), post)
    await expect(page).toHaveURL(`${limited.origin}/news/new`)
  } finally {
    await limited.stop()
  }
})

test.describe('redirects replace the history entry', () => {
  test('Back after adding a post skips the add form', async ({ page }) => {
    await page.goto('/contact')
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'New News' })
      .click()
    await writePost(page, draft(3))
    await expect(toast(page, 'success', TOASTS.created)).toBeVisible()
    await expect(page).toHaveURL('/')

    await page.goBack()

    await expect(page).toHaveURL('/contact')
  })

  test('Back after deleting a post skips the deleted article', async ({ page, post }) => {
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
    await expectNotAvailableAtHome(page)

    await page.goBack()

    await expect(page).toHaveURL('/contact')
    await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible()
  })
})
