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
} as const

/** The labels of the buttons a toast may carry. */
export const TOAST_ACTIONS = {
  undo: 'Undo',
  review: 'Review',
} as const

/**
 * What the forms say of the visitor's unsent text: where it came from, and, when the post changed
 * meanwhile, what the review of it shows.
 */
export const DRAFT_TEXTS = {
  /** A draft kept in storage, found on opening the form (a reload, a tab opened again). */
  restored: 'Your unsent text from an earlier visit is back in the form.',
  /** The visitor's own edit, refused in this visit because someone saved the post meanwhile. */
  notSaved:
    'Your edit was not saved, because someone saved this post meanwhile. Your text is back in the form.',
  /** The same, because the post was deleted meanwhile. */
  notSavedDeleted:
    'Your edit was not saved, because this post was deleted meanwhile. Your text is back in the form.',
  discard: 'Discard draft',
} as const

export const REVIEW_TEXTS = {
  heading: 'Saved meanwhile',
  intro:
    'Someone saved this post after you started editing. Fields you left alone now hold their text. Where you both changed a field, both texts are shown: choose which to keep. Saving replaces the stored version with the form.',
  bothChanged: (label: string) => `${label}: you both changed it`,
  theirsTaken: (label: string) => `${label}: their change is in the form`,
  yours: 'Your text',
  theirs: 'Their text',
  keepYours: 'Keep your text',
  useTheirs: 'Use their text',
  unchanged: (label: string) => `${label}: as before`,
} as const

export const DELETED_POST_TEXTS = {
  choice:
    'Your text stays here. Restore the post and save your edit onto it, or save your text as a new post.',
  restoreAndSave: 'Restore the post and save',
  saveAsNew: 'Save as a new post',
} as const
