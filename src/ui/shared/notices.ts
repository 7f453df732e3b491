/** Every text a toast shows, from the spec's error catalogue (section 8), in one place. */
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
} as const
