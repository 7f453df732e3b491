/**
 * What the site says of a post that is in the trash, wherever it says it: the page at the
 * post's address (which the server answers 410) and the article screen that finds it there.
 */
export const TRASH_MESSAGES = {
  /** The page's title, in the tab and the head. */
  pageTitle: 'Deleted post',
  heading: 'This post was deleted',
  /** Follows the post's title, in quotes. */
  whereItIs: 'is in Recently deleted, where it can be restored.',
  link: 'See it in Recently deleted',
  restore: 'Restore it',
  restoring: 'Restoring…',
} as const
