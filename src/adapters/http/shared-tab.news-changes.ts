import type { NewsChange } from '@/domain/news-change.entity'
import type {
  NewsChangeFeed,
  NewsChangeHandlers,
  NewsChangeSubscription,
} from '@/domain/ports/news-changes.port'
import { readTabMessage, type TabMessage } from '@/adapters/http/shared-tab.messages'
import { TabReaders, type Welcome } from '@/adapters/http/shared-tab.readers'

/** The part of the Web Locks API (navigator.locks) this adapter uses. */
export interface TabLocks {
  request(
    name: string,
    options: { readonly mode?: 'exclusive' },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown>
}

/** The part of a BroadcastChannel this adapter uses. */
export interface TabChannel {
  postMessage(message: TabMessage): void
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
}

/** The lock and channel name of this release's tabs; another release shares no stream with it. */
export const SHARED_STREAM_NAME = 'newswire.live/1'

/** As many changes as the server replays to a resuming stream. */
const KEEP_CHANGES = 1000

/** Longer than the longest wait of a reader between tries (the live-updates machine: 30 s). */
const HANDOVER_AFTER_MS = 45_000

export interface SharedTabNewsChangesOptions {
  /** The live stream, which this tab opens only while it leads: the EventSource adapter. */
  readonly stream: NewsChangeFeed
  /** The browser's navigator.locks, shared by the origin's tabs. */
  readonly locks: TabLocks
  /** This tab's end of the channel the origin's tabs share (a BroadcastChannel). */
  readonly channel: TabChannel
  readonly lockName?: string
  /** How many recent changes the leading tab keeps to catch up the readers that join. */
  readonly keep?: number
  /** How long a leading tab whose own readers dropped keeps leading before it hands over. */
  readonly handoverAfterMs?: number
}

/**
 * One live stream for all the tabs of a browser. A browser opens at most six HTTP/1.1
 * connections to a site, so a stream in every tab would leave a seventh tab nothing to load
 * with. The tab that holds the lock (Web Locks) leads: it alone opens the stream, keeps the
 * last changes, and passes each on over a BroadcastChannel. Every other tab with an open feed
 * waits for the lock, and says hello on the channel; the leader answers with what it missed
 * since its resume point (or a reset, past what it kept), then ready. When the leading tab
 * closes, the browser gives the lock to the next tab at once, which resumes the stream from
 * the last change it was told. A dropped stream drops every tab's feed, so that each says it is
 * reconnecting; the leader keeps the lock meanwhile and opens the stream again when the first
 * feed, in any tab, tries again.
 */
export class SharedTabNewsChanges implements NewsChangeFeed {
  private readonly readers = new TabReaders()
  private lock: 'none' | 'queued' | 'held' = 'none'
  private release: (() => void) | undefined
  /** The locks were refused (a sandboxed page): each feed opens a stream of its own. */
  private alone = false
  private handover: ReturnType<typeof setTimeout> | undefined
  // While this tab leads: its stream, where it stands, and the changes kept after `floor`.
  private stream: NewsChangeSubscription | undefined
  private live = false
  private seq: number | undefined
  private floor: number | undefined
  private kept: NewsChange[] = []
  /** Streams lost so far, as far as this tab has heard (see TabMessage). */
  private epoch = 0
  /** Other tabs' readers waiting for the stream to be ready, with their resume points. */
  private readonly hellos = new Map<string, number | undefined>()

  private readonly feed: NewsChangeFeed
  private readonly locks: TabLocks
  private readonly channel: TabChannel
  private readonly lockName: string
  private readonly keep: number
  private readonly handoverAfterMs: number

  constructor(options: SharedTabNewsChangesOptions) {
    this.feed = options.stream
    this.locks = options.locks
    this.channel = options.channel
    this.lockName = options.lockName ?? SHARED_STREAM_NAME
    this.keep = options.keep ?? KEEP_CHANGES
    this.handoverAfterMs = options.handoverAfterMs ?? HANDOVER_AFTER_MS
    this.channel.addEventListener('message', (event) => {
      const message = readTabMessage(event.data)
      if (message !== undefined) this.receive(message)
    })
  }

  open(since: number | undefined, handlers: NewsChangeHandlers): NewsChangeSubscription {
    if (this.alone) return this.feed.open(since, handlers)
    const reader = this.readers.add(since, handlers)
    clearTimeout(this.handover)
    if (this.lock !== 'held') {
      this.queue()
      this.post({ type: 'hello', reader: reader.id, since, epoch: this.epoch })
    } else if (this.live) {
      queueMicrotask(() => this.readers.welcome(reader, this.catchUp(reader.position)))
    } else {
      this.connect()
    }
    return {
      close: () => {
        // A page that lets go of its feed (hidden, or leaving) hands the stream to another tab.
        if (this.readers.delete(reader) && this.readers.size === 0) this.handOver()
      },
    }
  }

  /** Waits for the lock, and leads once it is granted, if this tab still has readers. */
  private queue(): void {
    if (this.lock !== 'none') return
    this.lock = 'queued'
    const granted = (release: () => void) => {
      this.release = release
      this.lock = 'held'
      if (this.readers.size === 0) return this.handOver()
      this.post({ type: 'leading', epoch: this.epoch })
      this.connect()
    }
    this.locks
      .request(this.lockName, { mode: 'exclusive' }, () => new Promise<void>(granted))
      .catch(() => {
        this.lock = 'none'
        this.alone = true
        this.readers.dropAll()
      })
  }

  /** Closes the stream, forgets what it kept and lets the next tab lead. */
  private handOver(): void {
    if (this.lock !== 'held') return
    clearTimeout(this.handover)
    this.stream?.close()
    this.stream = undefined
    this.live = false
    this.seq = undefined
    this.floor = undefined
    this.kept = []
    this.hellos.clear()
    this.lock = 'none'
    this.release?.()
    this.release = undefined
  }

  /** Opens the stream, unless open: from where it stopped, or from this tab's readers. */
  private connect(): void {
    if (this.stream !== undefined) return
    const resumes =
      this.seq ??
      earliest(this.readers.all().map((reader) => reader.position)) ??
      earliest([...this.hellos.values()])
    if (resumes !== this.seq) {
      this.kept = []
      this.floor = resumes
    }
    this.seq = resumes
    this.stream = this.feed.open(resumes, {
      change: (change) => this.heard(change),
      reset: (seq) => {
        this.seq = seq
        this.floor = seq
        this.kept = []
        this.post({ type: 'reset', seq })
        this.readers.reset(seq)
      },
      ready: (seq) => {
        this.live = true
        this.seq = seq
        this.floor ??= seq
        for (const reader of this.readers.waiting()) {
          this.readers.welcome(reader, this.catchUp(reader.position))
        }
        for (const [reader, since] of this.hellos) this.answer(reader, since)
        this.hellos.clear()
      },
      dropped: () => {
        this.stream = undefined
        this.live = false
        this.hellos.clear()
        this.epoch += 1
        this.post({ type: 'dropped', epoch: this.epoch })
        // The lock stays here, so that no other tab opens a stream before its wait is over:
        // the first reader to try again, here or in another tab, opens it. If this tab's own
        // readers do not come back in time (its page is hidden), it hands over.
        this.handover = setTimeout(() => this.handOver(), this.handoverAfterMs)
        this.readers.dropAll()
      },
    })
  }

  private heard(change: NewsChange): void {
    if (this.seq !== undefined && change.seq <= this.seq) return
    this.seq = change.seq
    this.kept.push(change)
    if (this.kept.length > this.keep) this.floor = this.kept.shift()?.seq
    this.post({ type: 'change', change })
    this.readers.tell(change)
  }

  /** What a reader resuming from `since` missed, as far as this tab kept it. */
  private catchUp(since: number | undefined): Welcome {
    const ready = this.seq ?? 0
    if (since === undefined || since >= ready) return { changes: [], reset: undefined, ready }
    if (this.floor === undefined || since < this.floor) return { changes: [], reset: ready, ready }
    const changes = this.kept.filter((change) => change.seq > since)
    return { changes, reset: undefined, ready }
  }

  private answer(reader: string, since: number | undefined): void {
    this.post({ type: 'welcome', reader, ...this.catchUp(since) })
  }

  private receive(message: TabMessage): void {
    switch (message.type) {
      case 'hello':
        if (this.lock !== 'held') return
        // Sent before its tab heard of the last loss: that tab drops the reader, or (if it
        // opened since) hears the epoch now and says hello again.
        if (message.epoch < this.epoch) return this.post({ type: 'leading', epoch: this.epoch })
        this.epoch = message.epoch
        if (this.live) return this.answer(message.reader, message.since)
        this.hellos.set(message.reader, message.since)
        return this.connect()
      case 'welcome': {
        const reader = this.readers.get(message.reader)
        return reader === undefined ? undefined : this.readers.welcome(reader, message)
      }
      case 'change':
        return this.readers.tell(message.change)
      // From a tab that led before this one: this one's own stream tells its readers.
      case 'reset':
        return this.lock === 'held' ? undefined : this.readers.reset(message.seq)
      case 'dropped':
        this.epoch = Math.max(this.epoch, message.epoch)
        return this.lock === 'held' ? undefined : this.readers.dropAll()
      case 'leading':
        this.epoch = Math.max(this.epoch, message.epoch)
        for (const reader of this.readers.waiting()) {
          this.post({ type: 'hello', reader: reader.id, since: reader.position, epoch: this.epoch })
        }
        return
    }
  }

  private post(message: TabMessage): void {
    this.channel.postMessage(message)
  }
}

function earliest(points: readonly (number | undefined)[]): number | undefined {
  const known = points.filter((point): point is number => point !== undefined)
  return known.length === 0 ? undefined : Math.min(...known)
}
