import type { Locator, Page } from '@playwright/test'

export type ToastKind = 'success' | 'error'

/** A toast as react-toastify draws it: role alert, with its type in a class. */
export function toast(page: Page, kind: ToastKind, text: string): Locator {
  return page
    .locator(`.Toastify__toast--${kind}`)
    .filter({ has: page.getByText(text, { exact: true }) })
}
