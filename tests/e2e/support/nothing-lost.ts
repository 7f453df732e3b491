import type { Page } from '@playwright/test'
import type { NewsItem } from './news-api'
import { startNewsWire, type NewsWireServer } from './newswire-server'

/** The texts of what NewsWire adds to the spec (docs/spec-deviations.md, rows 13 to 18). */
export const NOTHING_LOST_TEXTS = {
  restored: 'the news post is back',
  editConflict: 'this post was changed by someone else meanwhile, so your edit was not saved',
  deleteConflict: 'this post was changed by someone else meanwhile, so it was not deleted',
  rateLimited: (seconds: number) =>
    `too many changes from your address, try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`,
  undo: 'Undo',
  review: 'Review',
  discardDraft: 'Discard draft',
  savedMeanwhile: 'Saved meanwhile',
} as const

/** Where the forms keep drafts in the browser's local storage. */
export const DRAFT_KEYS = {
  add: 'newswire.draft.add',
  edit: (id: string) => `newswire.draft.edit.${id}`,
  contact: 'newswire.draft.contact',
} as const

/** The post as stored now, or undefined when the API answers 404. */
export async function storedPost(origin: string, id: string): Promise<NewsItem | undefined> {
  const response = await fetch(`${origin}/api/news/${encodeURIComponent(id)}`)
  if (response.status === 404) return undefined
  if (response.status !== 200) throw new Error(`GET /api/news/${id}: ${response.status}`)
  return (await response.json()) as NewsItem
}

/** What the page keeps under a draft key, parsed, or null. */
export async function draftIn(page: Page, key: string): Promise<unknown> {
  return page.evaluate((name) => {
    const text = localStorage.getItem(name)
    return text === null ? null : (JSON.parse(text) as unknown)
  }, key)
}

/** A server of its own with a write limit of `writesPerMinute`, for the 429 flows. */
export function startLimitedNewsWire(writesPerMinute: number): Promise<NewsWireServer> {
  return startNewsWire(undefined, { WRITE_RATE_LIMIT: String(writesPerMinute) })
}
