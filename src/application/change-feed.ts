import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsChangeLog } from '@/application/ports/change-log.port'
import { attempt, type Result } from '@/domain/result'
import { EVENT_REPLAY_WINDOW_MS } from '@/domain/rules/news-history.rules'

/**
 * The most changes a resuming reader is sent; a reader further behind is told to reload
 * (`reset`), which costs it one page load instead of a long replay. Small, so that a resume
 * stays cheap (about 15 KB and a couple of milliseconds of CPU): a reader that was away long
 * enough to miss more reloads what it shows anyway.
 */
export const MAX_REPLAY = 100

/** How a live stream begins (docs/architecture.md, the live stream). */
export interface FeedStart {
  /** The changes after the reader's resume point, oldest first; empty without one. */
  readonly missed: readonly NewsChange[]
  /**
   * True when the missed changes cannot all be told: more than MAX_REPLAY, older than the
   * replay window (EVENT_REPLAY_WINDOW_MS) or than the log keeps, or a resume point the site
   * never reached (a database put back from a backup). The reader must reload what it shows; `missed` is empty.
   */
  readonly reset: boolean
  /** The site's version: the stream's `ready`. Changes above it follow as they are made. */
  readonly seq: number
}

/**
 * The site's change log as the live stream (GET /api/events) reads it, on every server: where
 * a stream starts, and the changes after a position. The stream's route and its per-process
 * watcher read through this, never the store.
 */
export class ChangeFeed {
  constructor(
    private readonly log: NewsChangeLog,
    private readonly maxReplay: number = MAX_REPLAY,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Where a stream starts for a reader that has seen every change up to `since` (undefined: a
   * new reader, which starts at the current version). The version is read first, so the replay
   * holds every change up to it; changes after it are the watcher's to send.
   */
  start(since?: number): Promise<Result<FeedStart>> {
    return attempt(async () => {
      const { version, purgedThrough } = await this.log.changeLogBounds()
      const reset: FeedStart = { missed: [], reset: true, seq: version }
      if (since === undefined || since === version)
        return { missed: [], reset: false, seq: version }
      if (since > version || since < purgedThrough) return reset
      // One more than a replay may hold tells that the reader is too far behind. Changes that
      // committed after `version` was read are left to the watcher.
      const read = await this.log.changesSince(since, this.maxReplay + 1)
      const missed = read.filter((change) => change.seq <= version)
      if (missed.length > this.maxReplay) return reset
      // The log keeps a month for the recent changes; a stream replays only its last day.
      const windowStart = this.now().getTime() - EVENT_REPLAY_WINDOW_MS
      if (missed.some((change) => Date.parse(change.at) < windowStart)) return reset
      // A purge that ran meanwhile may have removed some of what was to be replayed.
      if (since < (await this.log.changeLogBounds()).purgedThrough) return reset
      return { missed, reset: false, seq: version }
    })
  }

  /**
   * The site's version now. A page whose data is read after it has seen every change up to it,
   * so the page's stream resumes there (PageData.seq) and misses nothing made meanwhile.
   */
  position(): Promise<Result<number>> {
    return attempt(async () => (await this.log.changeLogBounds()).version)
  }

  /** The changes after `seq`, oldest first, at most `limit`. */
  after(seq: number, limit: number): Promise<Result<readonly NewsChange[]>> {
    return attempt(() => this.log.changesSince(seq, limit))
  }
}
