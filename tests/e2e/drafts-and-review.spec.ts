import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { fillFields, newsForm } from './support/forms'
import { draft, type NewsApi, type NewsDraft, type NewsItem } from './support/news-api'
import {
  draftIn,
  DRAFT_KEYS,
  draftsOfEveryTab,
  NOTHING_LOST_TEXTS as TEXTS,
} from './support/nothing-lost'
import { openLive } from './support/screens'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

/*
 * What a visitor types is theirs until it is saved: another tab's save cannot take it, text
 * typed before the app ran counts, an edit of a post deleted meanwhile can still be saved, and
 * the review of a conflict keeps the others' changes where the visitor changed nothing.
 */

/** Types `typed` into the edit form of `post` while another visitor deletes the post. */
async function editWhileDeleted(
  page: Page,
  api: NewsApi,
  post: NewsItem,
  typed: Partial<NewsDraft>,
) {
  await openLive(page, `/news/${post._id}/edit`)
  await fillFields(newsForm(page), typed)
  await api.delete(post._id)
  await expect(page.getByText(/This post was deleted\./)).toBeVisible()
}

/** The toasts that would tell the visitor something false about an edit they can still save. */
function misleadingToasts(page: Page) {
  return page
    .locator('.Toastify__toast')
    .filter({ hasText: new RegExp(`${TOASTS.editFailed}|${TOASTS.notAvailable}`) })
}

test.describe('two tabs edit one post', () => {
  test("the second tab keeps its text through the first tab's save, and Review shows it", async ({
    page,
    context,
    api,
    post,
  }) => {
    const tabA = page
    const tabB = await context.newPage()
    await tabA.goto(`/news/${post._id}/edit`)
    await tabB.goto(`/news/${post._id}/edit`)
    await newsForm(tabB).body.fill('The body as tab B wrote it.')
    await expect
      .poll(() => draftIn(tabB, DRAFT_KEYS.edit(post._id)))
      .toMatchObject({ values: { body: 'The body as tab B wrote it.' } })

    await newsForm(tabA).title.fill('The title as tab A wrote it')
    await newsForm(tabA).save.click()
    await expect(toast(tabA, 'success', TOASTS.edited)).toBeVisible()

    // Tab A's save forgot tab A's draft only.
    expect(await draftIn(tabA, DRAFT_KEYS.edit(post._id))).toBeNull()
    expect(await draftIn(tabB, DRAFT_KEYS.edit(post._id))).toMatchObject({
      values: { body: 'The body as tab B wrote it.' },
    })
    await newsForm(tabB).save.click()
    const conflict = toast(tabB, 'error', TEXTS.editConflict)
    await expect(conflict).toBeVisible()
    // Even with the browser's storage gone, the text reaches Review from the page's memory.
    await tabB.evaluate(() => localStorage.clear())
    await conflict.getByRole('button', { name: TEXTS.review }).click()

    await expect(tabB).toHaveURL(`/news/${post._id}/edit`)
    await expect(newsForm(tabB).body).toHaveValue('The body as tab B wrote it.')
    await expect(newsForm(tabB).title).toHaveValue('The title as tab A wrote it')
    await expect(tabB.getByText(TEXTS.editNotSaved)).toBeVisible()
    await expect(tabB.getByText(TEXTS.earlierVisit)).toHaveCount(0)
    await newsForm(tabB).save.click()
    await expect(toast(tabB, 'success', TOASTS.edited)).toBeVisible()
    expect(await api.find(post._id)).toMatchObject({
      title: 'The title as tab A wrote it',
      body: 'The body as tab B wrote it.',
    })
  })

  test('a fresh tab offers the draft of a closed tab once, and never takes a live tab’s', async ({
    page,
    context,
    post,
  }) => {
    const live = await context.newPage()
    await live.goto(`/news/${post._id}/edit`)
    await newsForm(live).body.fill('Typed in a tab that stays open.')
    await expect.poll(() => draftIn(live, DRAFT_KEYS.edit(post._id))).not.toBeNull()

    await page.goto(`/news/${post._id}/edit`)
    await expect(newsForm(page).body).toHaveValue(post.body)

    const closing = await context.newPage()
    await closing.goto(`/news/${post._id}/edit`)
    await newsForm(closing).body.fill('Typed in a tab that was closed.')
    await expect.poll(() => draftIn(closing, DRAFT_KEYS.edit(post._id))).not.toBeNull()
    await closing.close()
    const fresh = await context.newPage()
    await fresh.goto(`/news/${post._id}/edit`)

    await expect(newsForm(fresh).body).toHaveValue('Typed in a tab that was closed.')
    await expect(fresh.getByText(TEXTS.fromClosedTab)).toBeVisible()
    await expect(newsForm(live).body).toHaveValue('Typed in a tab that stays open.')
    await expect.poll(() => draftsOfEveryTab(fresh, DRAFT_KEYS.edit(post._id))).toHaveLength(2)
  })
})

test("a duplicated tab takes a tab id of its own, so that its typing never overwrites the first tab's draft", async ({
  page,
  context,
  post,
}) => {
  await page.goto(`/news/${post._id}/edit`)
  await newsForm(page).body.fill('Typed in the first tab.')
  await expect.poll(() => draftIn(page, DRAFT_KEYS.edit(post._id))).not.toBeNull()
  const firstTab = await page.evaluate(() => sessionStorage.getItem('newswire.tab'))
  // A duplicated tab starts with a copy of the first tab's session storage.
  const copy = await context.newPage()
  await copy.addInitScript((id) => sessionStorage.setItem('newswire.tab', id ?? ''), firstTab)
  await copy.goto(`/news/${post._id}/edit`)

  await expect
    .poll(() => copy.evaluate(() => sessionStorage.getItem('newswire.tab')), { timeout: 10_000 })
    .not.toBe(firstTab)
  await newsForm(copy).body.fill('Typed in the copy.')
  await expect
    .poll(() => draftIn(copy, DRAFT_KEYS.edit(post._id)))
    .toMatchObject({ values: { body: 'Typed in the copy.' } })
  expect(await draftIn(page, DRAFT_KEYS.edit(post._id))).toMatchObject({
    values: { body: 'Typed in the first tab.' },
  })
})

test.describe('saving an edit of a post deleted elsewhere', () => {
  test('keeps the text and offers to restore the post and save onto it', async ({
    page,
    api,
    post,
  }) => {
    await editWhileDeleted(page, api, post, {
      body: 'An edit finished after the post was deleted.',
    })

    await expect(newsForm(page).save).toHaveCount(0)
    await expect(page.getByRole('button', { name: TEXTS.saveAsNew })).toBeVisible()
    await page.getByRole('button', { name: TEXTS.restoreAndSave }).click()

    await expect(toast(page, 'success', TOASTS.edited)).toBeVisible()
    await expect(page).toHaveURL(`/news/${post._id}`)
    await expect(page.getByText('An edit finished after the post was deleted.')).toBeVisible()
    expect(await api.find(post._id)).toMatchObject({
      title: post.title,
      body: 'An edit finished after the post was deleted.',
    })
    await expect(misleadingToasts(page)).toHaveCount(0)
  })

  test('keeps the text and offers to save it as a new post', async ({ page, api, post }) => {
    await editWhileDeleted(page, api, post, { title: 'Saved again as a post of its own' })

    await page.getByRole('button', { name: TEXTS.saveAsNew }).click()

    await expect(toast(page, 'success', TOASTS.created)).toBeVisible()
    const [created] = (await api.list()).filter((item) => item._id !== post._id)
    expect(created).toMatchObject({ title: 'Saved again as a post of its own', body: post.body })
    expect(await api.find(post._id)).toBeUndefined()
    await expect(misleadingToasts(page)).toHaveCount(0)
    expect(await draftIn(page, DRAFT_KEYS.edit(post._id))).toBeNull()
  })
})

test("the review of a conflict takes the others' changes to fields left alone, and shows fields both changed side by side", async ({
  page,
  api,
}) => {
  const [title, body] = ['Harbour opens', 'The harbour opens on Monday at nine.']
  const post = await api.create(draft(1, { title, body }))
  await page.goto(`/news/${post._id}/edit`)
  const fields = newsForm(page)
  await fields.title.fill('Harbour opens early')
  await fields.body.fill('The harbour opens on Monday at eight.')
  await api.edit(post._id, {
    author: 'Their Name',
    body: 'The harbour opens on Tuesday at nine.',
  })
  await fields.save.click()
  await toast(page, 'error', TEXTS.editConflict).getByRole('button', { name: TEXTS.review }).click()

  await expect(fields.author).toHaveValue('Their Name')
  await expect(fields.title).toHaveValue('Harbour opens early')
  await expect(fields.body).toHaveValue('The harbour opens on Monday at eight.')
  const both = page.getByRole('group', { name: TEXTS.bothChanged('Body') })
  await expect(both).toBeVisible()
  await expect(page.getByRole('group', { name: TEXTS.bothChanged('Title') })).toHaveCount(0)
  const yours = both.getByRole('region', { name: TEXTS.yourText })
  const theirs = both.getByRole('region', { name: TEXTS.theirText })
  await expect(yours.locator('mark')).toHaveText(['Monday', 'eight'])
  await expect(theirs.locator('mark')).toHaveText(['Tuesday', 'nine'])
  const [left, right] = [await yours.boundingBox(), await theirs.boundingBox()]
  expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1)

  await both.getByRole('radio', { name: TEXTS.useTheirs }).check()
  await expect(fields.body).toHaveValue('The harbour opens on Tuesday at nine.')
  await fields.save.click()

  await expect(toast(page, 'success', TOASTS.edited)).toBeVisible()
  expect(await api.find(post._id)).toMatchObject({
    title: 'Harbour opens early',
    author: 'Their Name',
    body: 'The harbour opens on Tuesday at nine.',
  })
})
