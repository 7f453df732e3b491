import { expect, type Locator, type Page } from '@playwright/test'
import { SITE } from './spec-texts'

/**
 * A field's description: its message, then the room it has used ('12/100') where it counts.
 * The message must come first, so that a screen reader says it first.
 */
export function withRoomUsed(message: string): RegExp {
  const literal = message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${literal}( \\d+/\\d+)?$`)
}

/**
 * Waits until the app runs in the server-rendered page: the app and the route's screen
 * hydrated, their effects started. Every tab's `goto` already waits for it (fixtures.ts);
 * this is for navigations made some other way.
 */
export async function expectHydrated(page: Page): Promise<void> {
  await expect(page.locator('html[data-app="running"]')).toBeAttached()
}

/**
 * Opens `path` and waits until the page follows the live stream (its answer has begun: changes
 * made from now on reach the page).
 */
export async function openLive(page: Page, path: string): Promise<void> {
  const stream = page.waitForResponse((response) => response.url().includes('/api/events'))
  await page.goto(path)
  expect((await stream).status()).toBe(200)
}

/** How far the page scrolls sideways: 0 when it fits the screen. */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
}

/** The news cards on the list, in reading order. */
export function cards(page: Page): Locator {
  return page.getByRole('main').getByRole('article')
}

/** Checks the frame every page has: header, tagline, banner link home, and the nav bar. */
export async function expectSiteFrame(page: Page): Promise<void> {
  const header = page.getByRole('banner')
  await expect(header.getByText(SITE.title, { exact: true })).toBeVisible()
  await expect(header.getByText(SITE.tagline, { exact: true })).toBeVisible()
  const bannerLink = header.getByRole('link').filter({ has: page.getByRole('img') })
  await expect(bannerLink).toHaveAttribute('href', '/')
  await expect(bannerLink.getByRole('img')).toBeVisible()
  await expectImageLoaded(bannerLink.getByRole('img'))

  const nav = page.getByRole('navigation', { name: 'Main' })
  const links = nav.getByRole('link')
  await expect(links).toHaveText(SITE.nav.map((link) => link.name))
  for (const [index, link] of SITE.nav.entries()) {
    await expect(links.nth(index)).toHaveAttribute('href', link.path)
  }
}

/** Follows the first card's Read More link. */
export async function readMore(page: Page): Promise<void> {
  await cards(page)
    .first()
    .getByRole('link', { name: /^Read More/ })
    .click()
}

/** Where an element's box is, visible or not. */
export function boxOf(element: Locator): Promise<{ width: number; height: number; x: number }> {
  return element.evaluate((node) => {
    const { width, height, x } = node.getBoundingClientRect()
    return { width, height, x }
  })
}

/** Waits until an image has loaded and has pixels to show. */
export async function expectImageLoaded(image: Locator): Promise<void> {
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true)
}

/**
 * Expects a remote image that failed to show the local picture instead: hidden, with the
 * stylesheet's picture in its frame filling the same box, which decodes to `width` × `height`.
 */
export async function expectLocalPicture(
  image: Locator,
  [width, height]: readonly [number, number],
): Promise<void> {
  await expect(image).toHaveAttribute('data-fallback')
  await expect(image).toBeHidden()
  const frame = image.locator('..')
  const [imageBox, frameBox] = await Promise.all([image, frame].map(boxOf))
  expect(frameBox).toEqual(imageBox)
  const size = await frame.evaluate(async (element) => {
    const url = /^url\("(.+)"\)$/.exec(getComputedStyle(element).backgroundImage)?.[1]
    if (url === undefined) return []
    const picture = new Image()
    picture.src = url
    await picture.decode()
    return [picture.naturalWidth, picture.naturalHeight]
  })
  expect(size).toEqual([width, height])
}

/** Waits until every image on the page has settled, loaded or fallen back. */
export async function waitForImages(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.images].every(
          (img) => img.complete && (img.naturalWidth > 0 || img.hasAttribute('data-fallback')),
        ),
      ),
    )
    .toBe(true)
}

/** The distinct left edges of the cards: one per grid column in use. */
export async function cardColumns(page: Page): Promise<number[]> {
  const boxes = await cards(page).evaluateAll((elements) =>
    elements.map((element) => Math.round(element.getBoundingClientRect().left)),
  )
  return [...new Set(boxes)].sort((a, b) => a - b)
}
