import type { Page } from '@playwright/test'

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
  editedElsewhere:
    'This post was edited elsewhere. Your text stays here; saving shows you the newer version beside it first.',
  articleEditedElsewhere: 'This post was edited elsewhere.',
  editNotSaved:
    'Your edit was not saved, because someone saved this post meanwhile. Your text is back in the form.',
  earlierVisit: 'Your unsent text from an earlier visit is back in the form.',
  fromClosedTab: 'Your unsent text from a tab you closed is back in the form.',
  restoreAndSave: 'Restore the post and save',
  saveAsNew: 'Save as a new post',
  yourText: 'Your text',
  theirText: 'Their text',
  keepYours: 'Keep your text',
  useTheirs: 'Use their text',
  bothChanged: (label: string) => `${label}: you both changed it`,
} as const

/**
 * Where the forms keep drafts in the browser's local storage: each tab under a key of its own,
 * the form's key followed by '#' and the tab's id.
 */
export const DRAFT_KEYS = {
  add: 'newswire.draft.add',
  edit: (id: string) => `newswire.draft.edit.${id}`,
  contact: 'newswire.draft.contact',
} as const

/** What the page's own tab keeps under a form's draft key, parsed, or null. */
export async function draftIn(page: Page, key: string): Promise<unknown> {
  return page.evaluate((name) => {
    const tab = sessionStorage.getItem('newswire.tab')
    const text = tab === null ? null : localStorage.getItem(`${name}#${tab}`)
    return text === null ? null : (JSON.parse(text) as unknown)
  }, key)
}

/** The drafts every tab keeps for a form's key, parsed. */
export async function draftsOfEveryTab(page: Page, key: string): Promise<unknown[]> {
  return page.evaluate((name) => {
    const drafts: unknown[] = []
    for (let index = 0; index < localStorage.length; index += 1) {
      const stored = localStorage.key(index)
      const text = stored?.startsWith(`${name}#`) ? localStorage.getItem(stored) : null
      if (text !== null) drafts.push(JSON.parse(text) as unknown)
    }
    return drafts
  }, key)
}
