import type { Browser, Locator, Page } from '@playwright/test'
import { calendarDate } from './support/dates'
import { expect, test } from './support/fixtures'
import { draft } from './support/news-api'
import { cards, readMore, sidewaysOverflow } from './support/screens'
import { LIMITS, TOASTS } from './support/spec-texts'
import { settledToast } from './support/toasts'

// The longest unbroken words a post can hold: an author at its limit, a title at its limit
// (100; a longer one is refused), and a 200-character address in the body.
const LONG_AUTHOR = 'Wolfeschlegelsteinhausenberger'
const LONG_TITLE = 'Supercalifragilistic'.repeat(5)
const LONG_URL = `https://example.org/${'a1b2c3d4e5'.repeat(18)}`

/** Right to left: a name in Arabic script. */
const RTL_AUTHOR = 'محمد بن موسى الخوارزمي'

const SCREEN = { width: 320, height: 640 }

/**
 * The texts that run past the screen's right edge. A card clips what overflows it, so a word
 * that does not wrap is cut off without the page growing: the text itself is measured.
 */
async function textsPastTheEdge(page: Page): Promise<string[]> {
  return page.evaluate((width) => {
    const past: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.parentElement?.closest('.visually-hidden') || !node.textContent?.trim()) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      const box = range.getBoundingClientRect()
      if (box.width > 0 && (box.left < 0 || box.right > width + 0.5)) {
        past.push(node.textContent.slice(0, 40))
      }
    }
    return past
  }, SCREEN.width)
}

/** Whether two boxes share any pixel. */
function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

test('at 320 px no screen scrolls sideways with a 30-character author, a 100-character title word and a 200-character address', async ({
  page,
  api,
}) => {
  const item = await api.create({
    title: LONG_TITLE,
    author: LONG_AUTHOR,
    body: `Read it at ${LONG_URL} before it goes.`,
  })
  // The history's diff marks the whole address, taken out and put in, as one word each.
  await api.edit(item._id, {
    body: `Read it at ${LONG_URL.replace('a1b2', 'z9y8')} before it goes.`,
  })
  await api.createDeleted({ title: LONG_TITLE, author: LONG_AUTHOR, body: LONG_URL })
  await page.setViewportSize(SCREEN)

  const screens = [
    { path: '/', ready: cards(page).getByText(LONG_AUTHOR) },
    { path: `/news/${item._id}`, ready: page.getByRole('heading', { name: LONG_TITLE }) },
    { path: '/news/new', ready: page.getByLabel('Title') },
    { path: `/news/${item._id}/edit`, ready: page.getByLabel('Title') },
    { path: '/contact', ready: page.getByLabel('Your Message') },
    {
      path: `/news/${item._id}/history`,
      // The first version shows every field, the long author's name among them.
      ready: page.getByRole('article', { name: /^Version 1:/ }).getByText(LONG_AUTHOR),
    },
    { path: '/trash', ready: page.getByText(`By ${LONG_AUTHOR}`) },
  ]
  for (const { path, ready } of screens) {
    await page.goto(path)
    await expect(ready.first()).toBeVisible()
    expect(await sidewaysOverflow(page), `sideways scroll on ${path}`).toBeLessThanOrEqual(0)
    expect(await textsPastTheEdge(page), `cut off on ${path}`).toEqual([])
  }

  // The forms stay within the screen while they hold the long words too.
  await page.goto(`/news/${item._id}/edit`)
  await expect(page.getByLabel('Title')).toHaveValue(LONG_TITLE)
  await page.getByLabel('Body').fill(LONG_URL)
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0)
})

test("with a right-to-left name the byline reads 'Created By:', the name, '|', the date, left to right, with the name isolated", async ({
  page,
  api,
}) => {
  const item = await api.create(draft(1, { author: RTL_AUTHOR }))
  await page.goto(`/news/${item._id}`)

  const byline = page.getByRole('main').getByText(/^Created By:/)
  await expect(byline).toHaveText(
    `Created By: ${RTL_AUTHOR} | ${calendarDate(item.createdAt, 'UTC')}`,
  )
  await expect(byline.locator('bdi')).toHaveText(RTL_AUTHOR)
  const order = await byline.evaluate((element) => {
    const box = (node: Node) => {
      const range = document.createRange()
      range.selectNodeContents(node)
      return range.getBoundingClientRect()
    }
    const [label] = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
    const name = element.querySelector('bdi')
    const date = element.querySelector('time')
    if (label === undefined || name === null || date === null) return undefined
    return { label: box(label), name: box(name), date: box(date) }
  })
  if (order === undefined) throw new Error('the byline lacks its label, name or date')
  // On one line, in this order from the left: without isolation the date jumps before the name.
  expect(order.name.top).toBeCloseTo(order.label.top, 0)
  expect(order.label.right).toBeLessThanOrEqual(order.name.left + 1)
  expect(order.name.right).toBeLessThanOrEqual(order.date.left + 1)

  await page.goto('/')
  const author = cards(page).first().getByText(RTL_AUTHOR)
  await expect(author).toHaveAttribute('dir', 'auto')
})

/** A page on a clock whose calendar day differs from UTC's at `instant`. */
async function pageInAnotherDay(browser: Browser, origin: string, instant: string) {
  const zone = new Date(instant).getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Etc/GMT+12'
  expect(calendarDate(instant, zone)).not.toBe(calendarDate(instant, 'UTC'))
  const context = await browser.newContext({ timezoneId: zone, baseURL: origin })
  return { context, page: await context.newPage() }
}

test("the article shows its creation date on the UTC calendar, whatever the visitor's zone", async ({
  browser,
  api,
  post,
}) => {
  const { context, page } = await pageInAnotherDay(browser, api.origin, post.createdAt)

  await page.goto(`/news/${post._id}`)
  const byline = page.getByRole('main').getByText(/^Created By:/)
  await expect(byline).toHaveText(
    `Created By: ${post.author} | ${calendarDate(post.createdAt, 'UTC')}`,
  )
  await expect(byline.locator('time')).toHaveAttribute('datetime', post.createdAt)
  await context.close()
})

test.describe('length limits and required fields', () => {
  test("the add form's fields are marked required and count what is typed against their limit", async ({
    page,
  }) => {
    await page.goto('/news/new')
    const fields = [
      { field: page.getByLabel('Title'), limit: LIMITS.title },
      { field: page.getByLabel('Author Name'), limit: LIMITS.author },
      { field: page.getByLabel('Body'), limit: LIMITS.body },
    ]
    await expect(page.getByText('Fields marked * are required.')).toBeVisible()
    for (const { field, limit } of fields) {
      await expect(field).toHaveAttribute('required', '')
      await expect(field).toHaveAccessibleDescription(`0/${limit}`)
      await expect(requiredMark(field)).toHaveText('*')
    }

    const title = page.getByLabel('Title')
    await title.pressSequentially('Harbour')
    await expect(counter(title)).toHaveText(`7/${LIMITS.title}`)
    await expect(title).toHaveAccessibleDescription(`7/${LIMITS.title}`)
    await title.press('Backspace')
    await expect(counter(title)).toHaveText(`6/${LIMITS.title}`)
  })

  test('near the limit the room left is announced politely, once typing pauses', async ({
    page,
  }) => {
    await page.goto('/contact')
    const name = page.getByLabel('Name')
    const announced = liveRegion(name)
    await expect(announced).toHaveAttribute('role', 'status')

    await name.pressSequentially('Ada Lovelace')
    await expect(counter(name)).toHaveText(`12/${LIMITS.name}`)
    // Far from the limit nothing is said: the count is there for whoever reads the description.
    await page.waitForTimeout(1000)
    await expect(announced).toHaveText('')

    await name.fill('n'.repeat(LIMITS.name - 2))
    await expect(counter(name)).toHaveText(`${LIMITS.name - 2}/${LIMITS.name}`)
    await expect(announced).toHaveText(`2 characters left of ${LIMITS.name}`)
    await name.pressSequentially('nnn')
    await expect(counter(name)).toHaveText(`${LIMITS.name + 1}/${LIMITS.name}`)
    await expect(announced).toHaveText(`1 character over the limit of ${LIMITS.name}`)

    // The address has a limit of the mail system's, not one to count: it is required only.
    const email = page.getByLabel('Email Address')
    await expect(email).toHaveAttribute('required', '')
    await expect(email).not.toHaveAttribute('aria-describedby')
    await expect(counter(page.getByLabel('Your Message'))).toHaveText(`0/${LIMITS.message}`)
  })
})

test("the first load leaves the focus alone; a click to another screen moves it to that screen's heading", async ({
  page,
  post,
}) => {
  await page.goto('/')
  await expect(cards(page)).toHaveCount(1)
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true)

  await readMore(page)
  const heading = page.getByRole('heading', { level: 1, name: post.title })
  await expect(heading).toBeFocused()

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Contact' })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeFocused()

  await page.goBack()
  await expect(heading).toBeFocused()

  await page.reload()
  await expect(heading).toBeVisible()
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true)
})

test('a toast leaves the header and the nav uncovered at 375 × 667', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 })
  await page.goto('/no/such/page')
  const shown = await settledToast(page, 'error', TOASTS.notAvailable)
  const box = await shown.boundingBox()
  const header = await page.getByRole('banner').boundingBox()
  const nav = await page.getByRole('navigation', { name: 'Main' }).boundingBox()
  if (box === null || header === null || nav === null) throw new Error('nothing to measure')
  expect(overlaps(box, header), 'the toast covers the header').toBe(false)
  expect(overlaps(box, nav), 'the toast covers the nav').toBe(false)
  expect(box.y + box.height).toBeLessThanOrEqual(667)
})

/** The visible count that the field names in its aria-describedby. */
function counter(field: Locator): Locator {
  return fieldBox(field).locator('.field-count')
}

/** The field's polite live region for the room left. */
function liveRegion(field: Locator): Locator {
  return fieldBox(field).getByRole('status')
}

/** The '*' beside the field's label. */
function requiredMark(field: Locator): Locator {
  return fieldBox(field).locator('.field-required [aria-hidden="true"]')
}

/** The box that holds the field, its label, its message and its count. */
function fieldBox(field: Locator): Locator {
  return field.locator('xpath=..')
}
