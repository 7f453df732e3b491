/**
 * The texts of the recent changes' toasts. Kept with the screen rather than in NOTICES
 * (ui/shared/notices.ts), which the first visit loads: only this screen shows them.
 */
export const CHANGES_NOTICES = {
  undone: 'the change is undone',
  changedSince: 'this post was changed again since, so the change was not undone: see its history',
  purged: 'that post was removed for good, so there is nothing to undo',
  undoFailed: 'something went wrong while undoing the change, try again later',
} as const
