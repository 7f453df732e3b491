/*
 * The recent changes' own texts: its title and its toasts. Kept with the screen rather than in
 * PAGE_TITLES and NOTICES (ui/shared/), which the first visit loads: only this screen shows them.
 */

/** The page's title, in the tab and its heading. */
export const CHANGES_TITLE = 'Recent changes'

export const CHANGES_NOTICES = {
  undone: 'the change is undone',
  changedSince: 'this post was changed again since, so the change was not undone: see its history',
  purged: 'that post was removed for good, so there is nothing to undo',
  undoFailed: 'something went wrong while undoing the change, try again later',
} as const
