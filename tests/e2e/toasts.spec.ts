import type { Locator, Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { TOASTS } from './support/spec-texts'
import { toast } from './support/toasts'

/** The countdown bar whose animation closes the toast when it ends. */
const timer = (shown: Locator) => shown.getByRole('progressbar', { name: 'notification timer' })

const playState = (shown: Locator) =>
  timer(shown).evaluate((bar) => getComputedStyle(bar).animationPlayState)

/** Relative luminance of a CSS rgb() colour, 0 (black) to 1 (white). */
function luminance(rgb: string): number {
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number)
  const linear = (c: number) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/**
 * Dark, in the top-right corner, inside the top-right container; counting down unless it
 * carries a button (Undo), which has no time limit.
 */
async function expectDarkTopRight(page: Page, shown: Locator, counting = true): Promise<void> {
  await expect(shown).toHaveClass(/Toastify__toast-theme--dark/)
  await expect(shown.locator('xpath=..')).toHaveClass(/Toastify__toast-container--top-right/)
  const background = await shown.evaluate((element) => getComputedStyle(element).backgroundColor)
  expect(luminance(background)).toBeLessThan(0.05)
  if (counting) await expect.poll(() => playState(shown)).toBe('running')
  else await expect(timer(shown)).toBeHidden()
  const box = await shown.boundingBox()
  const viewport = page.viewportSize()
  if (box === null || viewport === null) throw new Error('the toast has no box')
  expect(box.y).toBeLessThan(60)
  expect(box.x).toBeGreaterThan(viewport.width / 2)
  expect(viewport.width - (box.x + box.width)).toBeLessThan(60)
}

/** Opens an unknown address: its toast, once it has slid in and counts down its 5 s. */
async function countingToast(page: Page): Promise<Locator> {
  await page.goto('/no/such/page')
  const shown = toast(page, 'error', TOASTS.notAvailable)
  await expect(shown).toBeVisible()
  // The countdown starts once the toast has slid in and stands still (react-toastify's autoClose).
  await expect.poll(() => playState(shown)).toBe('running')
  return shown
}

test.describe('toasts', () => {
  test('appear top-right in the dark theme, errors and successes alike', async ({ page, post }) => {
    await expectDarkTopRight(page, await countingToast(page))

    await page.goto(`/news/${post._id}`)
    await page.getByRole('button', { name: 'Delete' }).click()
    const success = toast(page, 'success', TOASTS.deleted)
    await expect(success).toBeVisible()
    await expectDarkTopRight(page, success, false)
  })

  test('close after 5 seconds by themselves', async ({ page }) => {
    const shown = await countingToast(page)

    // Time the toast by its own countdown: how far it had run, plus how long until it closed.
    const lifetime = await timer(shown).evaluate(
      (bar) =>
        new Promise<{ duration: number; closedAfter: number }>((resolve, reject) => {
          const [countdown] = bar.getAnimations()
          const toastElement = bar.closest('.Toastify__toast')
          if (countdown === undefined || toastElement === null) return reject(new Error('no timer'))
          const elapsed = Number(countdown.currentTime ?? 0)
          const checkedAt = performance.now()
          const duration = Number(countdown.effect?.getTiming().duration ?? 0)
          const done = () =>
            resolve({ duration, closedAfter: elapsed + performance.now() - checkedAt })
          const watch = new MutationObserver(() => {
            if (toastElement.getAttribute('data-in') === 'false' || !toastElement.isConnected) {
              watch.disconnect()
              done()
            }
          })
          watch.observe(toastElement, { attributes: true, attributeFilter: ['data-in'] })
          setTimeout(() => reject(new Error('the toast stayed for 10 s')), 10_000)
        }),
    )

    expect(lifetime.duration).toBe(5000)
    expect(lifetime.closedAfter).toBeGreaterThanOrEqual(4900)
    // Measured from the page, so allow for a busy machine's latency, never for an early close.
    expect(lifetime.closedAfter).toBeLessThan(6000)
    await expect(shown).toHaveCount(0)
  })

  test('pause while hovered, and close with their close button', async ({ page }) => {
    const shown = await countingToast(page)

    // Once its slide-in has ended, point at it at once: waiting for Playwright's 'stable' check on
    // a busy machine could outlast the toast's 5 s, and the hover would meet it leaving.
    await shown.evaluate((element) => Promise.all(element.getAnimations().map((a) => a.finished)))
    await shown.hover({ force: true })
    await expect.poll(() => playState(shown)).toBe('paused')
    await page.mouse.move(10, 700)
    await expect.poll(() => playState(shown)).toBe('running')

    await shown.getByRole('button', { name: 'close' }).click()
    await expect(shown).toHaveCount(0, { timeout: 3000 })
  })

  test('can be dragged away', async ({ page }) => {
    const shown = await countingToast(page)
    const box = await shown.boundingBox()
    if (box === null) throw new Error('the toast has no box')

    // Leftwards, by its whole width: the toast sits at the right edge of the screen.
    const [x, y] = [box.x + box.width - 20, box.y + box.height / 2]
    await page.mouse.move(x, y)
    await expect.poll(() => playState(shown)).toBe('paused')
    await page.mouse.down()
    await page.mouse.move(x - box.width, y, { steps: 10 })
    await page.mouse.up()

    await expect(shown).toHaveCount(0, { timeout: 3000 })
  })
})
