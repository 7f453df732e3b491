/**
 * Every text a toast shows, in one place: the spec's error catalogue (section 8) first, then
 * the texts of what NewsWire adds to the spec (see docs/spec-deviations.md).
 */
export const NOTICES = {
  contactSent: 'successfully sent the email',
  created: 'successfully added news post',
  createFailed: 'something went wrong while creating the news post, try again later',
  edited: 'successfully edited news post',
  deleted: 'successfully deleted news post',
  deleteFailed: 'something went wrong while deleting the post, try again later',
  notAvailable: 'sorry, this page is not available',
  // The spec uses the same words for a failed edit and a failed contact message.
  tryAgainLater: 'something went wrong, please try again later',

  // Beyond the spec: undo, the trash, history and conflicts.
  restored: 'the news post is back',
  restoreFailed: 'something went wrong while restoring the post, try again later',
  versionRestored: 'that version is the current one again',
  editConflict: 'this post was changed by someone else meanwhile, so your edit was not saved',
  editOfDeleted: 'this post was deleted meanwhile, so your edit was not saved',
  deleteConflict: 'this post was changed by someone else meanwhile, so it was not deleted',
  purged: 'that post was removed from the trash for good, so it cannot be restored',
  restoreFromTrashFirst: 'this post is in the trash: restore it from Recently deleted first',
  rateLimited: (seconds: number) =>
    `too many changes from your address, try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`,
  // The operator's tools: a blocked client (until an instant, or until lifted), a protected post.
  blocked: (until: string | null, reason: string) =>
    `the operator blocked changes from your address${until === null ? '' : ` until ${utcMinute(until)}`}` +
    (reason === '' ? '' : `: ${reason}`),
  protectedPost: 'this post is protected: only the operator can change it',
} as const

/** The labels of the buttons a toast may carry. */
export const TOAST_ACTIONS = {
  undo: 'Undo',
  review: 'Review',
} as const

/**
 * An instant as toISOString writes it, as dates.ts's formatDayAndTime shows it (2026/11/28 17:00
 * UTC): cut from the text, so that a toast of the first visit's code needs no dayjs (3 KB of
 * gzip); tests/ui/dates.test.ts holds the two to the same output.
 */
export function utcMinute(iso: string): string {
  return `${iso.slice(0, 10).replaceAll('-', '/')} ${iso.slice(11, 16)} UTC`
}
