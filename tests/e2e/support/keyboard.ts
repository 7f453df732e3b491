import type { Locator, Page } from '@playwright/test'

/** What Tab stops at; an element taken out of the Tab order (a roving tabindex's others) is not. */
const INTERACTIVE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled])',
  'textarea:not([disabled])',
  'select',
  '[tabindex]',
]
  .map((selector) => `${selector}:not([tabindex="-1"])`)
  .join(', ')

/** Presses Tab until `target` has the focus; fails after `limit` presses. */
export async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab did not reach ${target.toString()} in ${limit} presses`)
}

export interface TabStop {
  readonly name: string
  /** Whether a focus ring (an outline, or a box shadow) shows while it has the focus. */
  readonly ringVisible: boolean
}

/**
 * Tabs through the whole page from the top and reports, for each visible interactive
 * element, whether Tab reached it and whether its focus showed.
 */
export async function tabThroughPage(
  page: Page,
): Promise<{ reached: TabStop[]; missed: string[] }> {
  const names = await page.evaluate((selector) => {
    const visible = [...document.querySelectorAll<HTMLElement>(selector)].filter((element) => {
      const box = element.getBoundingClientRect()
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden'
    })
    return visible.map((element, index) => {
      element.dataset.e2eStop = String(index)
      const label = element.getAttribute('aria-label') ?? element.textContent ?? ''
      return `${element.tagName.toLowerCase()} "${label.trim() || element.id}"`
    })
  }, INTERACTIVE)
  // Start from the top of the document, as a visitor arriving on the page does.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())

  const reached = new Map<string, TabStop>()
  for (let presses = 0; presses < names.length * 2 + 5; presses += 1) {
    await page.keyboard.press('Tab')
    const stop = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null
      if (element === null || element.dataset.e2eStop === undefined) return undefined
      const style = getComputedStyle(element)
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
      return { index: element.dataset.e2eStop, ring: outline || style.boxShadow !== 'none' }
    })
    if (stop === undefined) continue
    const name = names[Number(stop.index)] ?? stop.index
    if (!reached.has(stop.index)) reached.set(stop.index, { name, ringVisible: stop.ring })
    if (reached.size === names.length) break
  }
  const missed = names.filter((_, index) => !reached.has(String(index)))
  return { reached: [...reached.values()], missed }
}
