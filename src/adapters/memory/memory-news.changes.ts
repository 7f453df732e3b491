import type { NewsChange } from '@/domain/news-change.entity'
import type {
  NewsChangeFeed,
  NewsChangeHandlers,
  NewsChangeSubscription,
} from '@/domain/ports/news-changes.port'

export interface MemoryNewsChangesOptions {
  /** The most changes a resume replays; beyond it the reader gets `reset` (the server: 1000). */
  readonly replayLimit?: number
}

interface Reader {
  readonly handlers: NewsChangeHandlers
  /** Replayed and ready: changes go to it as they are published. */
  live: boolean
}

/**
 * The live change feed in memory, for tests and the browser's test composition. It keeps the
 * stream's protocol (GET /api/events): a resume replays the changes after `since` and then
 * says `ready`, or says `reset` when it cannot (more than the replay limit were missed, the
 * point is older than what is kept, or ahead of the site). Delivery is asynchronous, as over a
 * network. A test publishes changes, drops the open feeds, refuses the next opens (an outage
 * or the per-address cap) and forgets old changes (the server's retention).
 */
export class MemoryNewsChanges implements NewsChangeFeed {
  /** Each open's resume point, in order. */
  readonly opens: (number | undefined)[] = []
  private readonly log: NewsChange[] = []
  private readonly readers = new Set<Reader>()
  private version = 0
  /** Changes up to this seq are no longer kept. */
  private forgotten = 0
  private refusals = 0
  private readonly replayLimit: number

  constructor({ replayLimit = 1000 }: MemoryNewsChangesOptions = {}) {
    this.replayLimit = replayLimit
  }

  /** How many feeds are open now. */
  get openFeeds(): number {
    return this.readers.size
  }

  /** The site's version: the seq of the newest change. */
  get seq(): number {
    return this.version
  }

  open(since: number | undefined, handlers: NewsChangeHandlers): NewsChangeSubscription {
    this.opens.push(since)
    const reader: Reader = { handlers, live: false }
    this.readers.add(reader)
    const refused = this.refusals > 0
    if (refused) this.refusals -= 1
    later(() => {
      if (!this.readers.has(reader)) return
      if (refused) {
        this.readers.delete(reader)
        handlers.dropped()
        return
      }
      const missed = since === undefined ? [] : this.log.filter((change) => change.seq > since)
      if (since !== undefined && this.cannotReplay(since, missed.length)) {
        handlers.reset(this.version)
      } else {
        for (const change of missed) handlers.change(change)
      }
      reader.live = true
      handlers.ready(this.version)
    })
    return { close: () => void this.readers.delete(reader) }
  }

  /** Records a change made now (numbered next) and tells every live feed. */
  publish(change: Omit<NewsChange, 'seq' | 'at'> & { readonly at?: string }): NewsChange {
    this.version += 1
    const recorded: NewsChange = {
      seq: this.version,
      at: change.at ?? new Date().toISOString(),
      id: change.id,
      kind: change.kind,
      revision: change.revision,
    }
    this.log.push(recorded)
    const live = [...this.readers].filter((reader) => reader.live)
    later(() => {
      for (const reader of live) {
        if (this.readers.has(reader)) reader.handlers.change(recorded)
      }
    })
    return recorded
  }

  /** Ends every open feed as a lost connection (or a stopping server) does. */
  drop(): void {
    const readers = [...this.readers]
    this.readers.clear()
    later(() => {
      for (const reader of readers) reader.handlers.dropped()
    })
  }

  /** The next `count` opens fail, as during an outage or over the per-address cap. */
  refuse(count: number): void {
    this.refusals += count
  }

  /** Stops keeping the changes up to now, as the server's retention does with old ones. */
  forget(): void {
    this.forgotten = this.version
    this.log.length = 0
  }

  private cannotReplay(since: number, missed: number): boolean {
    return since > this.version || since < this.forgotten || missed > this.replayLimit
  }
}

/** Asynchronous, as a message over a network is. */
function later(work: () => void): void {
  queueMicrotask(work)
}
