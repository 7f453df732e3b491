/**
 * The spec's exact texts (the spec's sections 1, 5 and 8, with the decisions in docs/spec-deviations.md),
 * written out here rather than imported from src/, so that a changed message fails a test.
 */
export const SITE = {
  title: 'NewsWire',
  tagline: 'Discover the world through our news',
  nav: [
    { name: 'Home', path: '/' },
    { name: 'New News', path: '/news/new' },
    { name: 'Contact', path: '/contact' },
  ],
} as const

export const TOASTS = {
  contactSent: 'successfully sent the email',
  contactFailed: 'something went wrong, please try again later',
  created: 'successfully added news post',
  createFailed: 'something went wrong while creating the news post, try again later',
  edited: 'successfully edited news post',
  editFailed: 'something went wrong, please try again later',
  deleted: 'successfully deleted news post',
  // docs/spec-deviations.md, decision 3: shown, unlike the spec's original.
  deleteFailed: 'something went wrong while deleting the post, try again later',
  notAvailable: 'sorry, this page is not available',
} as const

export const NEWS_MESSAGES = {
  titleRequired: 'Sorry, title is required',
  // docs/spec-deviations.md, decision 1: the message says the real limit.
  titleTooLong: 'Must be 100 characters or less',
  bodyRequired: 'Sorry, body is required',
  bodyTooLong: 'Must be 500 characters or less',
  authorRequired: 'Sorry, author is required',
  authorTooLong: 'Name must be less than 30 characters',
} as const

export const CONTACT_MESSAGES = {
  nameRequired: 'Sorry, name is required',
  nameTooLong: 'Must be 30 characters or less',
  emailRequired: 'Sorry, email is required',
  emailInvalid: 'Invalid email address',
  messageRequired: 'Sorry, message is required',
  messageTooLong: 'Must be 500 characters or less',
} as const

export const LIMITS = { title: 100, body: 500, author: 30, name: 30, message: 500 } as const

/** docs/spec-deviations.md, decision 7: the first page the list loads. */
export const PAGE_SIZE = 24
