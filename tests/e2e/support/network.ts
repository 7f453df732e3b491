import type { Page, Request, Route } from '@playwright/test'

/** A gate: requests wait behind it until `open()` is called. */
export interface Gate {
  /** Resolves when the first request reached the gate. */
  readonly reached: Promise<void>
  open(): void
}

/** Holds the page's requests that match `method` and `url` until the gate opens. */
export async function holdRequests(page: Page, method: string, url: RegExp): Promise<Gate> {
  let open: () => void = () => undefined
  const opened = new Promise<void>((resolve) => (open = resolve))
  let reach: () => void = () => undefined
  const reached = new Promise<void>((resolve) => (reach = resolve))
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback()
    reach()
    await opened
    await route.fallback()
  })
  return { reached, open }
}

/**
 * Answers matching requests as a failing server would: 503 with a problem document. With
 * `times`, only that many fail; later ones reach the server.
 */
export async function failRequests(
  page: Page,
  method: string,
  url: RegExp,
  times?: number,
): Promise<void> {
  let left = times ?? Number.POSITIVE_INFINITY
  await page.route(url, (route: Route) => {
    if (route.request().method() !== method || left <= 0) return route.fallback()
    left -= 1
    return route.fulfill({
      status: 503,
      contentType: 'application/problem+json',
      body: JSON.stringify({
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: 'The news store is unavailable.',
      }),
    })
  })
}

/** Makes matching requests fail as a dropped connection does. */
export async function abortRequests(page: Page, method: string, url: RegExp): Promise<void> {
  await page.route(url, (route) =>
    route.request().method() === method ? route.abort('connectionreset') : route.fallback(),
  )
}

/** Records the page's requests that match `method` and `url`. */
export function recordRequests(page: Page, method: string, url: RegExp): Request[] {
  const seen: Request[] = []
  page.on('request', (request) => {
    if (request.method() === method && url.test(request.url())) seen.push(request)
  })
  return seen
}

/** The news API's paths, as the page calls them. */
export const NEWS_LIST = /\/api\/news(\?.*)?$/
export const NEWS_ITEM = /\/api\/news\/[^/?]+$/
