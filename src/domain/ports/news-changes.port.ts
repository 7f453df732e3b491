import type { NewsChange } from '@/domain/news-change.entity'

/**
 * What a change feed tells its reader, in this order: on a resume, the changes missed since
 * the resume point (or `reset` when they cannot all be told); then `ready`; then each change
 * as it is made. `dropped` ends the feed.
 */
export interface NewsChangeHandlers {
  /** Caught up to `seq`, the site's version now: from here on, changes arrive as they happen. */
  readonly ready: (seq: number) => void
  /** A post was created, edited, deleted or restored, on any server. */
  readonly change: (change: NewsChange) => void
  /**
   * The changes since the resume point cannot be told (too many, or too old to be kept): what
   * the reader shows must be loaded again. The feed goes on from `seq`.
   */
  readonly reset: (seq: number) => void
  /**
   * The connection was lost or refused (an outage, too many open feeds, a malformed message).
   * The feed is closed and tells nothing more; open another to resume.
   */
  readonly dropped: () => void
}

/** An open feed. */
export interface NewsChangeSubscription {
  /** Stops the feed; its handlers are not called again. */
  close(): void
}

/**
 * The site's live changes, as a reader (the browser) follows them. `open` resumes after the
 * change numbered `since` (the last one the reader saw), or starts at the site's current
 * version when `since` is undefined.
 */
export interface NewsChangeFeed {
  open(since: number | undefined, handlers: NewsChangeHandlers): NewsChangeSubscription
}
