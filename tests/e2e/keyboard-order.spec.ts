import type { Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { cardColumns, cards } from './support/screens'
import { PAGE_SIZE } from './support/spec-texts'

/** The title of the card that has the focus itself, or '' when the focus is not on a card. */
function focusedCard(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement
    return element?.tagName === 'ARTICLE' ? (element.querySelector('h2')?.textContent ?? '') : ''
  })
}

/**
 * Presses each of `keys` in turn and expects the focus, after each, on the card `visits` names.
 * What a key does loads on demand (feed-keys.ts) and may land a moment after the press: each
 * step waits for its card, and fails if the focus goes elsewhere.
 */
async function expectKeysToVisit(
  page: Page,
  keys: readonly string[],
  visits: readonly (string | undefined)[],
): Promise<void> {
  expect(visits).toHaveLength(keys.length)
  for (const [index, key] of keys.entries()) {
    await page.keyboard.press(key)
    await expect
      .poll(() => focusedCard(page), { message: `after ${key}, step ${index + 1}` })
      .toBe(visits[index])
  }
}

/** The names of the articles in the main region, in Chromium's own accessibility tree order. */
async function articlesInAccessibilityTree(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page)
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: {
      nodeId: string
      role?: { value?: string }
      name?: { value?: string }
      childIds?: string[]
    }[]
  }
  await cdp.detach()
  const byId = new Map(nodes.map((node) => [node.nodeId, node]))
  const names: string[] = []
  const walk = (id: string) => {
    const node = byId.get(id)
    if (node === undefined) return
    if (node.role?.value === 'article') names.push(node.name?.value ?? '')
    for (const child of node.childIds ?? []) walk(child)
  }
  const [root] = nodes
  if (root !== undefined) walk(root.nodeId)
  return names
}

/** The DOM order of the cards' titles: react-masonry-css's, column by column. */
function titlesInDom(page: Page): Promise<string[]> {
  return cards(page).evaluateAll((elements) =>
    elements.map((element) => element.querySelector('h2')?.textContent ?? ''),
  )
}

test.describe('the news grid as a feed, from the keyboard and in the accessibility tree', () => {
  for (const [width, columns] of [
    [1280, 3],
    [768, 2],
    [375, 1],
  ] as const) {
    test(`at ${width} px (${columns} masonry column${columns > 1 ? 's' : ''}) the keys and the tree go post 1, 2, 3… across pages, and Enter opens the post`, async ({
      page,
      api,
    }, testInfo) => {
      await page.setViewportSize({ width, height: 900 })
      const total = PAGE_SIZE + 6
      await api.createNumbered(total)
      const newestFirst = (await api.list()).map((item) => item.title)

      await page.goto('/')
      await expect(cards(page)).toHaveCount(PAGE_SIZE)
      expect(await cardColumns(page)).toHaveLength(columns)
      const feed = page.getByRole('feed', { name: 'Latest news' })
      if (columns > 1) {
        // The masonry's DOM goes column by column: what follows proves the keys and the tree do not.
        expect((await titlesInDom(page)).slice(0, 2)).not.toEqual(newestFirst.slice(0, 2))
      }

      // One Tab stop in the grid, the first card; the keys walk the list's order from it.
      await page.getByRole('main').focus()
      await page.keyboard.press('Tab')
      expect(await focusedCard(page)).toBe(newestFirst[0])
      const keys = ['ArrowDown', 'PageDown', 'ArrowDown', 'PageDown', 'ArrowDown', 'PageDown']
      await expectKeysToVisit(page, keys, newestFirst.slice(1, 7))
      await expectKeysToVisit(
        page,
        ['ArrowUp', 'PageUp', 'Home'],
        [newestFirst[5], newestFirst[4], newestFirst[0]],
      )
      expect(await articlesInAccessibilityTree(page)).toEqual(newestFirst.slice(0, PAGE_SIZE))
      await expect(feed.getByRole('article').first()).toHaveAttribute('aria-setsize', '-1')
      await expect(page.locator('main article[tabindex="0"]')).toHaveCount(1)
      await expect(page.locator('main article a[href]:not([tabindex="-1"])')).toHaveCount(0)

      // End takes the focus to the last card loaded; scrolled to it, the next page loads after
      // it, and the keys go on into it.
      await expectKeysToVisit(page, ['End'], [newestFirst[PAGE_SIZE - 1]])
      await page.mouse.wheel(0, 5000)
      await expect(cards(page)).toHaveCount(total)
      expect(await focusedCard(page)).toBe(newestFirst[PAGE_SIZE - 1])
      await expectKeysToVisit(
        page,
        ['ArrowDown', 'PageDown'],
        newestFirst.slice(PAGE_SIZE, PAGE_SIZE + 2),
      )
      expect(await articlesInAccessibilityTree(page)).toEqual(newestFirst)
      await expect(feed.getByRole('article').first()).toHaveAttribute('aria-setsize', `${total}`)

      // Tab leaves the grid; Shift+Tab comes back to the same card.
      await page.keyboard.press('Tab')
      expect(await focusedCard(page)).toBe('')
      expect(await page.evaluate(() => document.activeElement?.closest('[role="feed"]'))).toBeNull()
      await page.keyboard.press('Shift+Tab')
      expect(await focusedCard(page)).toBe(newestFirst[PAGE_SIZE + 1])
      if (width === 1280) await expectNoSeriousAxeViolations(page, testInfo, 'news-feed-focused')

      await page.keyboard.press('Enter')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        newestFirst[PAGE_SIZE + 1] ?? '',
      )
      await expect(page).toHaveURL(/\/news\/[^/]+$/)
    })
  }
})

test('the focused card keeps the focus when the masonry changes its columns, and the keys go on from it', async ({
  page,
  api,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  await api.createNumbered(7)
  const newestFirst = (await api.list()).map((item) => item.title)
  await page.goto('/')
  await expect(cards(page)).toHaveCount(7)
  await page.getByRole('main').focus()
  await page.keyboard.press('Tab')
  await expectKeysToVisit(
    page,
    ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown'],
    newestFirst.slice(1, 5),
  )

  for (const [width, columns] of [
    [768, 2],
    [375, 1],
    [1280, 3],
  ] as const) {
    await page.setViewportSize({ width, height: 900 })
    await expect.poll(() => cardColumns(page)).toHaveLength(columns)
    await expect.poll(() => focusedCard(page)).toBe(newestFirst[4])
  }
  await expectKeysToVisit(page, ['ArrowDown'], [newestFirst[5]])
})
