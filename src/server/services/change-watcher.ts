import type { FastifyBaseLogger } from 'fastify'
import type { ChangeFeed } from '@/application/change-feed'
import type { ChangeSignal } from '@/application/ports/change-signal.port'
import type { StreamLeases } from '@/application/ports/stream-leases.port'
import { ChangeBatch, type EventStream } from '@/server/services/event-stream'
import { readSendQueues } from '@/server/services/socket-send-queues'

export interface ChangeWatcherTimings {
  /** How often the change signal is read while streams are open. */
  readonly pollMs: number
  /** How often each open stream gets a heartbeat, and this process's leases are renewed. */
  readonly heartbeatMs: number
}

/** Changes read per query when the watcher catches up. */
const PAGE = 500
/** The longest pause between reads of the change signal while the database fails. */
const MAX_BACKOFF_MS = 5_000
/**
 * Streams written to in one turn of the event loop. A write to a stream costs some
 * microseconds; a slice of them holds the loop well under a millisecond, and requests that
 * arrived meanwhile are read before the next slice.
 */
const FAN_OUT_SLICE = 32

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * The live streams of one server process, and the one reader of the change log they share.
 * While any stream is open it reads the change signal every `pollMs` (for a SQLite file, one
 * lookup on a connection of its own; a primary-key lookup on PostgreSQL); when the version has
 * moved, it reads the new changes once, whichever server or process made them, frames them once
 * (ChangeBatch) and hands the same bytes to every stream, FAN_OUT_SLICE streams a turn of the
 * event loop, so that a thousand streams never hold it. With no stream open it reads nothing.
 * Every `heartbeatMs` it reads what the system's send queues hold (socket-send-queues.ts), sends
 * each stream a heartbeat, or drops it if it has fallen behind, and renews this process's leases
 * in one statement.
 *
 * A stream joins before it reads where it starts, and the watcher's position is read before
 * that too, so a change committed meanwhile is either in the stream's start or delivered to it
 * afterwards (EventStream keeps it until its start is sent).
 */
export class ChangeWatcher {
  private readonly streams = new Map<EventStream, () => Promise<void>>()
  /** The seq up to which changes were handed out; undefined while no stream is open. */
  private cursor: number | undefined
  /**
   * Counts the starts of the watch, so that a read begun before the watch stopped and started
   * again hands nothing out: the new watch reads from its own position.
   */
  private generation = 0
  private starting: Promise<void> | undefined
  private pollTimer: NodeJS.Timeout | undefined
  private heartbeatTimer: NodeJS.Timeout | undefined
  private failures = 0
  private readonly releasing = new Set<Promise<void>>()
  private stopping = false
  /** Whether a heartbeat is under way, so that a slow one is not overtaken by the next. */
  private beating = false

  constructor(
    private readonly signal: ChangeSignal,
    private readonly feed: ChangeFeed,
    private readonly leases: StreamLeases,
    private readonly timings: ChangeWatcherTimings,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether the server is stopping: a stream opened now ends once its start is sent. */
  get closing(): boolean {
    return this.stopping
  }

  /**
   * Adds `stream`, starting the watch if it is the first; `release` gives its lease back once
   * it closes. Rejects (and forgets the stream) when the change signal cannot be read.
   */
  async join(stream: EventStream, release: () => Promise<void>): Promise<void> {
    this.streams.set(stream, release)
    void stream.closed.then(() => this.leave(stream))
    try {
      await this.start()
    } catch (error) {
      this.leave(stream)
      throw error
    }
  }

  /** Forgets `stream` and gives its lease back; the watch stops with the last stream. */
  leave(stream: EventStream): void {
    const release = this.streams.get(stream)
    if (release === undefined) return
    this.streams.delete(stream)
    const released = release()
      .catch((error: unknown) =>
        this.log.warn({ err: error }, 'live stream lease not released; it expires by itself'),
      )
      .finally(() => this.releasing.delete(released))
    this.releasing.add(released)
    if (this.streams.size === 0) this.stop()
  }

  /**
   * Ends every stream (each reader reconnects, to another server if this one is going away)
   * and waits until their leases are given back, so that the database can close after it. A
   * reader that does not take its last bytes within a second is cut off.
   */
  async close(): Promise<void> {
    this.stopping = true
    const streams = [...this.streams.keys()]
    for (const stream of streams) stream.end()
    let timer: NodeJS.Timeout | undefined
    const patience = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 1_000)
    })
    await Promise.race([Promise.all(streams.map((stream) => stream.sent)), patience])
    clearTimeout(timer)
    for (const stream of streams) {
      // Its connection would hold the server's close until the reader took the rest.
      if (!stream.isSent) stream.destroy()
      this.leave(stream)
    }
    await Promise.all([...this.releasing])
  }

  private start(): Promise<void> {
    if (this.cursor !== undefined) return Promise.resolve()
    this.starting ??= this.signal
      .version()
      .then((version) => {
        // Every stream may have left meanwhile: then there is nothing to watch.
        if (this.cursor !== undefined || this.streams.size === 0) return
        this.cursor = version
        this.generation += 1
        this.failures = 0
        this.schedulePoll(this.timings.pollMs)
        this.heartbeatTimer ??= setInterval(() => void this.beat(), this.timings.heartbeatMs)
        this.heartbeatTimer.unref()
      })
      .finally(() => {
        this.starting = undefined
      })
    return this.starting
  }

  private stop(): void {
    this.cursor = undefined
    clearTimeout(this.pollTimer)
    clearInterval(this.heartbeatTimer)
    this.pollTimer = undefined
    this.heartbeatTimer = undefined
  }

  private schedulePoll(delayMs: number): void {
    clearTimeout(this.pollTimer)
    this.pollTimer = setTimeout(() => void this.poll(), delayMs)
    this.pollTimer.unref()
  }

  private async poll(): Promise<void> {
    if (this.cursor === undefined) return
    const generation = this.generation
    try {
      await this.catchUp(this.cursor, generation)
      this.failures = 0
    } catch (error) {
      // The store has told its error listener; try again, less often while it lasts.
      this.failures += 1
      if (this.failures === 1) this.log.warn({ err: error }, 'live streams: change log unread')
    }
    if (this.generation !== generation) return
    if (this.streams.size === 0) {
      this.stop()
      return
    }
    const backoff = Math.min(this.timings.pollMs * 2 ** this.failures, MAX_BACKOFF_MS)
    this.schedulePoll(this.failures === 0 ? this.timings.pollMs : backoff)
  }

  /** Hands every stream the changes after `from` that the version says exist. */
  private async catchUp(from: number, generation: number): Promise<void> {
    const version = await this.signal.version()
    if (this.generation !== generation || version === from) return
    if (version < from) {
      // The database went back (a backup was put in place): readers must reload.
      this.cursor = version
      for (const stream of this.streams.keys()) stream.rewind(version)
      return
    }
    let after = from
    for (;;) {
      const page = await this.feed.after(after, PAGE)
      if (!page.ok) throw new Error(`change log unread: ${page.error.code}`)
      // The watch may have stopped, or started again, while the page was read.
      if (this.generation !== generation) return
      const batch = new ChangeBatch(page.value)
      await this.fanOut((stream) => stream.deliver(batch))
      if (this.generation !== generation) return
      after = batch.lastSeq ?? after
      this.cursor = after
      if (page.value.length < PAGE) break
    }
    // Every change up to `version` was committed before it could be read, so none is left.
    this.cursor = Math.max(after, version)
  }

  private async beat(): Promise<void> {
    if (this.beating) return
    this.beating = true
    try {
      const queues = await readSendQueues()
      await this.fanOut((stream) => {
        const socket = stream.socket
        stream.heartbeat(queues === undefined || socket === null ? undefined : queues.of(socket))
      })
    } finally {
      this.beating = false
    }
    // The watch may have stopped meanwhile, and the database closed after it.
    if (this.stopping || this.cursor === undefined) return
    this.leases
      .renew()
      .catch((error: unknown) => this.log.warn({ err: error }, 'live stream leases not renewed'))
  }

  /**
   * Calls `each` on every open stream, FAN_OUT_SLICE of them a turn of the event loop. A
   * stream that joins meanwhile is left out: its start covers what was read before it joined.
   */
  private async fanOut(each: (stream: EventStream) => void): Promise<void> {
    const streams = [...this.streams.keys()]
    for (let from = 0; from < streams.length; from += FAN_OUT_SLICE) {
      if (from > 0) await nextTurn()
      for (const stream of streams.slice(from, from + FAN_OUT_SLICE)) each(stream)
    }
  }
}
