import { expect, test } from './support/fixtures'
import { cards } from './support/screens'

const markup = {
  title: '<img src=x onerror="window.__ran=\'title\'">Breaking',
  author: '<b>Mallory</b>',
  body: '<script>window.__ran = "body"</script><a href="javascript:alert(1)">click</a> & more',
}

test('markup in a post is shown as text and never run, on the list, the article and the edit form', async ({
  page,
  api,
}) => {
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  const item = await api.create(markup)

  await page.goto('/')
  const card = cards(page).first()
  await expect(card.getByRole('heading')).toHaveText(markup.title)
  await expect(card.getByText(markup.author, { exact: true })).toBeVisible()
  await expect(card.getByText(markup.body, { exact: true })).toBeVisible()
  await expect(card.locator('script, b, a[href^="javascript"], img[src="x"]')).toHaveCount(0)

  await card.getByRole('link', { name: /^Read More/ }).click()
  const article = page.getByRole('main').getByRole('article')
  await expect(article.getByRole('heading', { level: 1 })).toHaveText(markup.title)
  await expect(article.getByText(markup.body, { exact: true })).toBeVisible()
  await expect(article.getByText(/^Created By:/)).toContainText(markup.author)
  await expect(article.locator('script, b, a[href^="javascript"], img[src="x"]')).toHaveCount(0)
  await expect(page).toHaveTitle(`${markup.title} | NewsWire`)
  // The list and the article were one page load: nothing ran in either.
  expect(await page.evaluate(() => (window as { __ran?: string }).__ran)).toBeUndefined()

  await page.goto(`/news/${item._id}/edit`)
  await expect(page.getByLabel('Title')).toHaveValue(markup.title)
  await expect(page.getByLabel('Body')).toHaveValue(markup.body)

  expect(await page.evaluate(() => (window as { __ran?: string }).__ran)).toBeUndefined()
  expect(dialogs).toEqual([])
})
