import type { Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { tabTo } from './support/keyboard'
import { draft } from './support/news-api'
import { cardColumns, cards } from './support/screens'
import { PAGE_SIZE, TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

/** The name of the card each Tab press reaches, from the main region, `presses` times. */
async function tabbedCards(page: Page, presses: number): Promise<string[]> {
  await page.getByRole('main').focus()
  const names: string[] = []
  for (let press = 0; press < presses; press += 1) {
    await page.keyboard.press('Tab')
    names.push(
      await page.evaluate(
        () => document.activeElement?.closest('article')?.querySelector('h2')?.textContent ?? '',
      ),
    )
  }
  return names
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

test.describe('reading order of the news grid', () => {
  test('at 1280 px Tab and the accessibility tree go post 1, 2, 3… in three columns, across pages', async ({
    page,
    api,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    const total = PAGE_SIZE + 6
    await api.createMany(Array.from({ length: total }, (_, n) => draft(n + 1)))
    const newestFirst = (await api.list()).map((item) => item.title)

    await page.goto('/')
    await expect(cards(page)).toHaveCount(PAGE_SIZE)
    expect(await cardColumns(page)).toHaveLength(3)

    expect(await tabbedCards(page, 7)).toEqual(newestFirst.slice(0, 7))
    expect(await articlesInAccessibilityTree(page)).toEqual(newestFirst.slice(0, PAGE_SIZE))

    // The next page, loaded by scrolling, goes on in the same order.
    await cards(page).last().scrollIntoViewIfNeeded()
    await page.mouse.wheel(0, 5000)
    await expect(cards(page)).toHaveCount(total)
    expect(await articlesInAccessibilityTree(page)).toEqual(newestFirst)
    await cards(page)
      .nth(PAGE_SIZE - 1)
      .getByRole('link')
      .focus()
    await page.keyboard.press('Tab')
    await expect(cards(page).nth(PAGE_SIZE).getByRole('link')).toBeFocused()
    await expect(cards(page).nth(PAGE_SIZE)).toHaveAccessibleName(newestFirst[PAGE_SIZE] ?? '')
  })

  test('a tablet and a phone keep the list order too', async ({ page, api }) => {
    await api.createMany([1, 2, 3, 4, 5].map((n) => draft(n)))
    const newestFirst = (await api.list()).map((item) => item.title)
    for (const [width, columns] of [
      [768, 2],
      [375, 1],
    ] as const) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto('/')
      await expect(cards(page)).toHaveCount(5)
      expect(await cardColumns(page)).toHaveLength(columns)
      expect(await tabbedCards(page, 5)).toEqual(newestFirst)
    }
  })
})

test.describe('the Undo of a delete', () => {
  test('is reached in a few Tab presses, is announced, stays, and restores the post', async ({
    page,
    api,
  }, testInfo) => {
    const [, post] = await api.createMany([draft(1), draft(2), draft(3), draft(4)])
    if (post === undefined) throw new Error('no post')
    await page.goto(`/news/${post._id}`)

    await tabTo(page, page.getByRole('button', { name: 'Delete' }))
    await page.keyboard.press('Enter')
    const shown = toast(page, 'success', TOASTS.deleted)
    await expect(shown).toBeVisible()
    await expect(page).toHaveURL(/\/$/)
    // Announced: the toast is an alert, read out as it comes.
    await expect(shown).toHaveAttribute('role', 'alert')
    const undo = shown.getByRole('button', { name: 'Undo' })
    await tabTo(page, undo, 5)
    await expectNoSeriousAxeViolations(page, testInfo, 'undo-toast-focused')

    // No time limit (WCAG 2.2.1): it is still there well after the 10 s it used to last.
    await page.waitForTimeout(11_000)
    await expect(undo).toBeFocused()
    await page.keyboard.press('Enter')

    await expect(toast(page, 'success', 'the news post is back')).toBeVisible()
    await expect(page.getByRole('article', { name: post.title })).toBeVisible()
    expect(await api.find(post._id)).toMatchObject({ title: post.title })
  })
})
