import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test, visitorOf } from './support/fixtures'
import { expectFieldValues, newsForm, writePost } from './support/forms'
import { draft } from './support/news-api'
import { operator } from './support/operator'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

const PROTECTED_NOTE = 'Protected by the operator: only the operator can edit or delete this post.'

test('the history names each editor by pseudonym, and a protected post offers no Edit or Delete', async ({
  page,
  api,
  newsWire,
}, testInfo) => {
  const post = await api.create(draft(1, { title: 'Harbour reopens' }))
  const me = (await operator(newsWire.databaseUrl, 'who', visitorOf(testInfo))).trim()
  const server = (await operator(newsWire.databaseUrl, 'who', '127.0.0.1')).trim()

  await page.goto(`/news/${post._id}/edit`)
  await writePost(page, { title: 'Harbour reopens for good' })
  await expect(toast(page, 'success', TOASTS.edited)).toBeVisible()

  await page.goto(`/news/${post._id}/history`)
  const versions = page.getByRole('main').getByRole('listitem')
  await expect(versions.nth(0)).toContainText(`by Visitor ${me}`)
  await expect(versions.nth(1)).toContainText(`by Visitor ${server}`)
  await expectNoSeriousAxeViolations(page, testInfo, 'history-editors')

  await operator(newsWire.databaseUrl, 'protect', post._id, '--reason', 'edit war')
  await page.goto(`/news/${post._id}`)
  const main = page.getByRole('main')
  await expect(main.getByText(PROTECTED_NOTE)).toBeVisible()
  await expect(main.getByRole('link', { name: 'History' })).toBeVisible()
  await expect(main.getByRole('link', { name: 'Edit' })).toHaveCount(0)
  await expect(main.getByRole('button', { name: 'Delete' })).toHaveCount(0)
  await expectNoSeriousAxeViolations(page, testInfo, 'protected-post')

  // A visitor who reaches the form anyway is told, and keeps the text.
  await page.goto(`/news/${post._id}/edit`)
  await writePost(page, { body: 'Vandalised.' })
  await expect(
    toast(page, 'error', 'this post is protected: only the operator can change it'),
  ).toBeVisible()
  expect(await api.find(post._id)).toMatchObject({ title: 'Harbour reopens for good' })
})

test('a blocked visitor is told why and until when, and keeps what they typed', async ({
  page,
  api,
  newsWire,
}, testInfo) => {
  const me = (await operator(newsWire.databaseUrl, 'who', visitorOf(testInfo))).trim()
  const said = await operator(newsWire.databaseUrl, 'block', me, '--reason', 'spam wave')
  expect(said).toContain(`Blocked editor ${me}`)

  await page.goto('/news/new')
  await writePost(page, { title: 'Cheap watches', author: 'Spammer', body: 'Buy now.' })

  const refused = toast(page, 'error', 'the operator blocked changes from your address: spam wave')
  await expect(refused).toBeVisible()
  await expectFieldValues(newsForm(page), { title: 'Cheap watches', body: 'Buy now.' })
  await expectNoSeriousAxeViolations(page, testInfo, 'blocked-visitor')
  expect(await api.list()).toEqual([])

  // Reads still work.
  const post = await api.create(draft(2, { title: 'Ferry timetable' }))
  await page.goto(`/news/${post._id}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ferry timetable')
})
