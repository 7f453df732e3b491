import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page, TestInfo } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { draft, type NewsDraft } from './support/news-api'
import { SCREENSHOTS_DIR } from './support/paths'
import { cards, waitForImages } from './support/screens'

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 768, height: 1024 },
  { width: 375, height: 812 },
]

/** Bodies of different lengths, so that the masonry columns differ in height. */
const POSTS: NewsDraft[] = [
  draft(1, { title: 'Port opens a second container terminal', body: 'Short notice.' }),
  draft(2, {
    title: 'Night market returns to the waterfront after three years',
    body: 'Stalls, lanterns and music. '.repeat(8),
  }),
  draft(3, { body: 'The council approved the plan on Tuesday. '.repeat(4) }),
  draft(4, { title: 'Rain', body: 'It rained.' }),
  draft(5, { body: 'A long report on the harbour dredging. '.repeat(6) }),
  draft(6),
  draft(7, { title: 'Ferry timetable changes from Monday' }),
]

/** Loads every image (lazy ones too), then saves the whole page as <screen>-<width>.png. */
async function capture(page: Page, testInfo: TestInfo, screen: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  await waitForImages(page)
  await page.evaluate(() => window.scrollTo(0, 0))
  const width = page.viewportSize()?.width ?? 0
  mkdirSync(SCREENSHOTS_DIR, { recursive: true })
  const path = join(SCREENSHOTS_DIR, `${screen}-${width}.png`)
  await page.screenshot({ path, fullPage: true, animations: 'disabled' })
  await testInfo.attach(`${screen}-${width}.png`, { path, contentType: 'image/png' })
}

for (const size of WIDTHS) {
  test(`screenshots of every screen at ${size.width}px`, async ({ page, api }, testInfo) => {
    await page.setViewportSize(size)

    await page.goto('/')
    await expect(page.getByText('There are no news posts yet.')).toBeVisible()
    await capture(page, testInfo, 'news-list-empty')

    const items = await api.createMany(POSTS)
    await page.reload()
    await expect(cards(page)).toHaveCount(POSTS.length)
    await capture(page, testInfo, 'news-list')

    const article = items[1]?._id ?? ''
    await page.goto(`/news/${article}`)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await capture(page, testInfo, 'article')

    await page.goto(`/news/${article}/edit`)
    await expect(page.getByLabel('Title')).not.toHaveValue('')
    await capture(page, testInfo, 'edit-news')

    await page.goto('/news/new')
    await expect(page.getByLabel('Title')).toBeVisible()
    await capture(page, testInfo, 'add-news')
    await page.getByRole('button', { name: 'Add news' }).click()
    await expect(page.locator('.field-error')).toHaveCount(3)
    await capture(page, testInfo, 'add-news-errors')

    await page.goto('/contact')
    await expect(page.getByLabel('Name')).toBeVisible()
    await capture(page, testInfo, 'contact')
  })
}
