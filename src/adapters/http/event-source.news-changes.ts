import type { NewsChange } from '@/domain/news-change.entity'
import type {
  NewsChangeFeed,
  NewsChangeHandlers,
  NewsChangeSubscription,
} from '@/domain/ports/news-changes.port'
import { NewsChangeSchema, StreamPositionSchema } from '@/contract/news-change.wire-schemas'
import { decode } from '@/adapters/http/wire-schema.checker'

const EVENTS_PATH = '/api/events'

/** The part of the WHATWG EventSource this adapter uses; the browser's own, or a stand-in. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void
  close(): void
}

export type EventSourceFactory = (url: string) => EventSourceLike

export interface EventSourceNewsChangesOptions {
  /** Where the API lives: an origin, optionally with a path prefix; '' means this page's origin. */
  readonly baseUrl?: string
  /** Opens the stream; the browser's EventSource unless given (Node has none). */
  readonly connect?: EventSourceFactory
}

/**
 * Follows `GET /api/events` with the browser's EventSource. A resume point travels as `since`
 * (an EventSource opened anew cannot send Last-Event-ID). The browser's own reconnection is
 * never used: on the first error (a dropped connection, or a refusal such as 429 or 400, which
 * an EventSource cannot tell apart) the stream is closed and reported `dropped`, so that the
 * caller decides when to try again and from where. A message whose data does not match its
 * wire schema drops the stream too: reading on past it could skip a change, while a new
 * connection resumes from the last change read.
 */
export class EventSourceNewsChanges implements NewsChangeFeed {
  private readonly base: string
  private readonly connect: EventSourceFactory

  constructor({
    baseUrl = '',
    connect = (url) => new EventSource(url),
  }: EventSourceNewsChangesOptions = {}) {
    this.base = baseUrl.replace(/\/+$/, '')
    this.connect = connect
  }

  open(since: number | undefined, handlers: NewsChangeHandlers): NewsChangeSubscription {
    const url = new URL(this.base + EVENTS_PATH, globalThis.location?.href)
    if (since !== undefined) url.searchParams.set('since', String(since))
    const source = this.connect(url.href)
    let open = true
    const close = () => {
      open = false
      source.close()
    }
    const drop = () => {
      if (!open) return
      close()
      handlers.dropped()
    }
    /** Reads a message's data with `read`, and hands it on; anything else ends the stream. */
    const on = <T>(type: string, read: (data: unknown) => T | undefined, use: (value: T) => void) =>
      source.addEventListener(type, (event) => {
        if (!open) return
        const value = read(parsed(event.data))
        if (value === undefined) drop()
        else use(value)
      })
    on('ready', positionOf, handlers.ready)
    on('change', newsChangeOf, handlers.change)
    on('reset', positionOf, handlers.reset)
    source.addEventListener('error', drop)
    return { close }
  }
}

const newsChangeOf = (data: unknown): NewsChange | undefined => decode(NewsChangeSchema, data)

const positionOf = (data: unknown): number | undefined => decode(StreamPositionSchema, data)?.seq

function parsed(data: unknown): unknown {
  if (typeof data !== 'string') return undefined
  try {
    return JSON.parse(data) as unknown
  } catch {
    return undefined
  }
}
