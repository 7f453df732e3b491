import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { PassThrough } from 'node:stream'
import { encode } from 'eventsource-encoder'
import type { NewsChange } from '@/domain/news-change.entity'
import type { FeedStart } from '@/application/change-feed'

/** How the live streams behave unless the app is told otherwise (AppOptions.events). */
export const EVENT_STREAM_DEFAULTS = {
  /**
   * A comment this often keeps proxies from closing an idle stream, and shows it alive. The
   * leases are renewed as often, so keep it well under their term (STREAM_LEASE_TERM_MS, 60 s).
   */
  heartbeatMs: 15_000,
  /** How often a server reads the change signal while it has streams open. */
  pollMs: 250,
  /** Open streams per client address, across every server on the database. */
  perAddress: 20,
  /**
   * Streams a client address may have closed within the last minute, across every server: its
   * reconnects, each of which may replay up to MAX_REPLAY changes. Past it, a new one waits.
   */
  reconnectsPerMinute: 60,
  /**
   * What may wait unread for one reader (in this process and, where the system tells, in its
   * socket's send queue) at two heartbeats in a row before it is dropped; a burst (a replay, a
   * bulk write) may fill this process's buffers up to BURST_FACTOR times as much meanwhile.
   */
  maxBufferedBytes: 256 * 1024,
} as const

/** How far past maxBufferedBytes a burst may fill a reader's buffers before it is dropped at once. */
export const BURST_FACTOR = 16

export type EventStreamSettings = { readonly [Key in keyof typeof EVENT_STREAM_DEFAULTS]: number }

/**
 * The messages of GET /api/events (README, the live stream), framed by eventsource-encoder.
 * Each carries its seq as the `id`, so that a reconnecting EventSource resumes with it.
 */
export const EVENT_MESSAGES = {
  change: (change: NewsChange) =>
    encode({ id: change.seq, event: 'change', data: JSON.stringify(changeData(change)) }),
  ready: (seq: number) => encode({ id: seq, event: 'ready', data: JSON.stringify({ seq }) }),
  reset: (seq: number) => encode({ id: seq, event: 'reset', data: JSON.stringify({ seq }) }),
  heartbeat: encode({ comment: 'heartbeat' }),
} as const

const HEARTBEAT = Buffer.from(EVENT_MESSAGES.heartbeat)

/** The fields of a change in the order the protocol lists them. */
function changeData({ seq, id, kind, revision, at }: NewsChange): NewsChange {
  return { seq, id, kind, revision, at }
}

/**
 * Changes read together, in seq order, framed once into one buffer that every stream shares:
 * a stream is handed a view of it from the first change it lacks, never a copy.
 */
export class ChangeBatch {
  readonly frames: Buffer
  /** Where each change's frame begins in `frames`. */
  private readonly offsets: number[] = []

  constructor(readonly changes: readonly NewsChange[]) {
    const parts = changes.map((change) => Buffer.from(EVENT_MESSAGES.change(change)))
    let offset = 0
    for (const part of parts) {
      this.offsets.push(offset)
      offset += part.length
    }
    this.frames = Buffer.concat(parts, offset)
  }

  /** The seq of the last change; undefined for none. */
  get lastSeq(): number | undefined {
    return this.changes.at(-1)?.seq
  }

  /** The frames of the changes after `seq`, as a view of `frames`; empty when none is. */
  after(seq: number): Buffer {
    const first = this.changes.findIndex((change) => change.seq > seq)
    return first === -1 ? this.frames.subarray(0, 0) : this.frames.subarray(this.offsets[first])
  }
}

/**
 * One open live stream: what its reader has been sent, and the body Fastify pipes to it.
 *
 * Until `open` has sent the start (the replay or reset, then `ready`), batches the watcher
 * delivers wait here; then the changes the start did not cover follow, in order, and each later
 * one is sent unless the reader has it already. So a reader sees every change exactly once, in
 * seq order, whichever server made it.
 *
 * A reader that falls behind is dropped, so that one stalled client cannot hold the server's
 * memory, measured by what it has not acknowledged: the bytes still in this process (the body,
 * the response and the socket) plus, where the system tells (Linux), the bytes its socket's send
 * queue holds that the reader's side has not acknowledged (socket-send-queues.ts). At each
 * heartbeat, a reader with more than `maxBufferedBytes` so waiting at this heartbeat and the one
 * before is dropped; so is one that took nothing since the last heartbeat while bytes waited in
 * this process (its system buffers are full and it reads none of them, wherever the system
 * tells nothing); and at once, one that a burst leaves with BURST_FACTOR times as much in this
 * process. A healthy reader takes a replay or a burst of changes well within a heartbeat. A
 * dropped connection is reset, so that the system throws away what its send queue holds.
 */
export class EventStream {
  readonly body = new PassThrough()
  /** Resolves once the body has closed: ended, or the connection lost. */
  readonly closed: Promise<void>
  /** Resolves once the response is done: all of it handed to the system, or the connection lost. */
  readonly sent: Promise<void>
  private sentThrough: number | undefined
  private waiting: ChangeBatch[] = []
  /** Bytes handed to the system at the last heartbeat, and whether the reader was behind then. */
  private lastBeat = { handed: -1, behind: false }

  constructor(
    private readonly response: ServerResponse,
    private readonly maxBufferedBytes: number,
  ) {
    this.closed = new Promise((resolve) => this.body.once('close', resolve))
    this.sent = new Promise((resolve) => {
      response.once('finish', resolve)
      response.once('close', resolve)
    })
    // A write after the reader left is nothing to report.
    this.body.on('error', () => undefined)
    // A reader that leaves before the body is piped to it (while its start is read) closes it
    // too, so that its lease is given back all the same.
    response.once('close', () => this.body.destroy())
  }

  /** Whether the start has been sent, so that changes go out as they come. */
  get isOpen(): boolean {
    return this.sentThrough !== undefined && !this.isClosed
  }

  get isClosed(): boolean {
    return this.body.destroyed || this.body.writableEnded
  }

  get isSent(): boolean {
    return this.response.writableFinished || this.response.destroyed
  }

  /** The connection, while it is open: what the system's send queue is looked up by. */
  get socket(): Socket | null {
    return this.response.socket
  }

  /** Sends the start (the missed changes or a reset, then `ready`), then what waited meanwhile. */
  open(start: FeedStart): void {
    if (start.reset) this.write(EVENT_MESSAGES.reset(start.seq))
    if (start.missed.length > 0) this.write(new ChangeBatch(start.missed).frames)
    this.write(EVENT_MESSAGES.ready(start.seq))
    this.sentThrough = start.seq
    const waiting = this.waiting
    this.waiting = []
    for (const batch of waiting) this.deliver(batch)
  }

  /** Changes the watcher read: those the reader lacks are sent, or kept until `open`. */
  deliver(batch: ChangeBatch): void {
    if (this.sentThrough === undefined) {
      this.waiting.push(batch)
      return
    }
    const last = batch.lastSeq
    if (last === undefined || last <= this.sentThrough) return
    const frames = batch.after(this.sentThrough)
    this.sentThrough = last
    this.write(frames)
  }

  /**
   * The site's version went back below what this reader was sent (a database put back from a
   * backup): it must reload, and follows from `seq` on.
   */
  rewind(seq: number): void {
    if (this.sentThrough === undefined || this.sentThrough <= seq) return
    this.sentThrough = seq
    this.write(EVENT_MESSAGES.reset(seq))
  }

  /**
   * Sends a heartbeat, or drops the reader if it has fallen behind (see the class).
   * `unacknowledged`: the bytes its socket's send queue holds that its side has not
   * acknowledged, where the system tells; undefined elsewhere.
   */
  heartbeat(unacknowledged?: number): void {
    if (!this.isOpen) return
    const held = this.waitingBytes
    const handed = this.handedBytes
    const behind = held + (unacknowledged ?? 0) > this.maxBufferedBytes
    const stalled = held > 0 && handed === this.lastBeat.handed
    const wasBehind = this.lastBeat.behind
    this.lastBeat = { handed, behind }
    if ((behind && wasBehind) || stalled) this.destroy()
    else this.write(HEARTBEAT)
  }

  /** Ends the stream once what was written has been sent; the reader will reconnect. */
  end(): void {
    if (!this.isClosed) this.body.end()
  }

  /** Ends the connection at once, without waiting for the reader or for its send queue. */
  destroy(): void {
    this.body.destroy()
    const socket = this.response.socket
    if (socket !== null && !socket.destroyed) {
      try {
        socket.resetAndDestroy()
      } catch {
        // Not a TCP connection (a Unix socket, or a test's injected request): close it plainly.
        socket.destroy()
      }
    }
    this.response.destroy()
  }

  private write(message: string | Buffer): void {
    if (this.isClosed) return
    this.body.write(message)
    if (this.waitingBytes > BURST_FACTOR * this.maxBufferedBytes) this.destroy()
  }

  /** Bytes written that the reader has not taken yet, as far as this process holds them. */
  get waitingBytes(): number {
    return this.body.writableLength + this.body.readableLength + this.response.writableLength
  }

  /**
   * Bytes of the connection handed to the system so far: what the socket was given, less what
   * it still holds (the writes whose callbacks have not run).
   */
  private get handedBytes(): number {
    const socket = this.response.socket
    return socket === null ? -1 : socket.bytesWritten - socket.writableLength
  }
}
