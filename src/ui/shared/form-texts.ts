/**
 * The texts the forms show beside the visitor's text, in one place, as the toasts' are in
 * notices.ts. They are apart from those because only the forms' screens show them: they load
 * with the forms, not with the first visit to '/'.
 */

/**
 * What the forms say of the visitor's unsent text: where it came from, and, when the post changed
 * meanwhile, what the review of it shows.
 */
export const DRAFT_TEXTS = {
  /** A draft kept in storage by an earlier load of the page (a reload, the browser reopened). */
  restored: 'Your unsent text from an earlier visit is back in the form.',
  /** A draft this page load wrote, found as the form opens again (the visitor came back to it). */
  restoredThisVisit: 'Your unsent text is back in the form.',
  /** A draft a closed tab left, which this tab took. */
  adopted: 'Your unsent text from a tab you closed is back in the form.',
  /** The visitor's own edit, refused in this visit because someone saved the post meanwhile. */
  notSaved:
    'Your edit was not saved, because someone saved this post meanwhile. Your text is back in the form.',
  /** The same, because the post was deleted meanwhile. */
  notSavedDeleted:
    'Your edit was not saved, because this post was deleted meanwhile. Your text is back in the form.',
  /** The same, because the operator blocked the visitor or protected the post. */
  notSavedRefused: 'Your edit was not saved. Your text is back in the form.',
  discard: 'Discard draft',
} as const

export const REVIEW_TEXTS = {
  heading: 'Saved meanwhile',
  intro:
    'Someone saved this post after you started editing. Fields you left alone now hold their text. Where you both changed a field, both texts are shown: choose which to keep. Saving replaces the stored version with the form.',
  bothChanged: (label: string) => `${label}: you both changed it`,
  theirsTaken: (label: string) => `${label}: their change is in the form`,
  yoursOnly: (label: string) => `${label}: only you changed it; the stored text is`,
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
