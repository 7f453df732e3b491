import { expect, test } from './support/fixtures'
import { cardColumns, cards, sidewaysOverflow } from './support/screens'
import { SITE } from './support/spec-texts'

test('the nav links and the banner lead to their screens', async ({ page }) => {
  await page.goto('/contact')
  const nav = page.getByRole('navigation', { name: 'Main' })

  await nav.getByRole('link', { name: 'New News' }).click()
  await expect(page).toHaveURL('/news/new')
  await expect(page.getByRole('heading', { name: 'Add news' })).toBeVisible()

  await nav.getByRole('link', { name: 'Contact' }).click()
  await expect(page).toHaveURL('/contact')
  await expect(page.getByRole('heading', { name: 'Contact us' })).toBeVisible()

  await nav.getByRole('link', { name: 'Home' }).click()
  await expect(page).toHaveURL('/')

  await page.goto('/news/new')
  await page.getByRole('banner').getByRole('link').click()
  await expect(page).toHaveURL('/')
  await expect(page).toHaveTitle(new RegExp(SITE.title))
})

test.describe('the news grid', () => {
  const widths = [
    { name: 'a wide screen', width: 1280, height: 800, columns: 3 },
    // docs/spec-deviations.md, decision 8: 2 columns on tablets.
    { name: 'a tablet', width: 768, height: 1024, columns: 2 },
    { name: 'a phone-sized screen', width: 375, height: 812, columns: 1 },
  ]
  for (const { name, width, height, columns } of widths) {
    test(`shows ${columns} column${columns > 1 ? 's' : ''} on ${name} (${width}px)`, async ({
      page,
      api,
    }) => {
      await api.createNumbered(6)
      await page.setViewportSize({ width, height })
      await page.goto('/')
      await expect(cards(page)).toHaveCount(6)

      expect(await cardColumns(page)).toHaveLength(columns)
      // Nothing is wider than the screen: no sideways scrolling.
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0)
      if (columns === 1) {
        const main = await page.getByRole('main').boundingBox()
        const card = await cards(page).first().boundingBox()
        expect(card?.width).toBeGreaterThan((main?.width ?? 0) * 0.8)
      }
    })
  }
})
