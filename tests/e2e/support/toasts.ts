import { expect, type Locator, type Page } from '@playwright/test'
import { TOASTS } from './spec-texts'

export type ToastKind = 'success' | 'error'

/** A toast as react-toastify draws it: role alert, with its type in a class. */
export function toast(page: Page, kind: ToastKind, text: string): Locator {
  return page
    .locator(`.Toastify__toast--${kind}`)
    .filter({ has: page.getByText(text, { exact: true }) })
}

/** Expects the toast to show, and waits until it has slid into place, as a visitor sees it. */
export async function settledToast(page: Page, kind: ToastKind, text: string): Promise<Locator> {
  const shown = toast(page, kind, text)
  await expect(shown).toBeVisible()
  await expect
    .poll(() =>
      shown.evaluate((element) => element.getAnimations().every((a) => a.playState !== 'running')),
    )
    .toBe(true)
  return shown
}

/** Expects the 'not available' toast, and the list it led to. */
export async function expectNotAvailableAtHome(page: Page): Promise<void> {
  await expect(toast(page, 'error', TOASTS.notAvailable)).toBeVisible()
  await expect(page).toHaveURL('/')
}
