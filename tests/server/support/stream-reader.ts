import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import type { NewsChange } from '@/domain/news-change.entity'

/** How long a test waits for what the stream should say, on a busy machine. */
export const PATIENCE_MS = 5_000

/** A reader of GET /api/events, as an EventSource reads it, parsed by eventsource-parser. */
export interface StreamReader {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  /** The messages so far, in order. */
  readonly messages: EventSourceMessage[]
  /** The comments so far (heartbeats). */
  readonly comments: string[]
  /** The whole body of an answer other than the stream (a problem). */
  readonly text: () => string
  /** Resolves once the server has ended the response or the connection. */
  readonly ended: Promise<void>
  readonly isEnded: () => boolean
  /** Waits until at least `count` messages have arrived; answers them. */
  messagesUpTo(count: number): Promise<EventSourceMessage[]>
  close(): void
}

const readers: StreamReader[] = []

/** Closes every stream opened so far; a suite calls it after each test. */
export function closeReaders(): void {
  for (const reader of readers.splice(0)) reader.close()
}

export interface StreamRequest {
  readonly since?: string
  readonly lastEventId?: string
  /** The client's address (any of 127.0.0.0/8), so that one test can be several clients. */
  readonly from?: string
  readonly headers?: Record<string, string>
}

export function openStream(base: string, request: StreamRequest = {}): Promise<StreamReader> {
  const url = new URL('/api/events', base)
  if (request.since !== undefined) url.searchParams.set('since', request.since)
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      // A connection of its own, as each EventSource has.
      agent: false,
      localAddress: request.from ?? '127.0.0.1',
      headers: {
        accept: 'text/event-stream',
        ...(request.lastEventId === undefined ? {} : { 'last-event-id': request.lastEventId }),
        ...request.headers,
      },
    })
    outgoing.on('error', reject)
    outgoing.on('response', (response) => {
      const messages: EventSourceMessage[] = []
      const comments: string[] = []
      let text = ''
      let ended = false
      const parser = createParser({
        onEvent: (message) => messages.push(message),
        onComment: (comment) => comments.push(comment.trim()),
      })
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        text += chunk
        parser.feed(chunk)
      })
      const done = new Promise<void>((settle) => {
        response.once('end', settle)
        response.once('close', settle)
        response.once('error', () => settle())
      }).then(() => {
        ended = true
      })
      const reader: StreamReader = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        messages,
        comments,
        text: () => text,
        ended: done,
        isEnded: () => ended,
        async messagesUpTo(count) {
          await waitUntil(
            () => messages.length >= count,
            () => `${count} messages, got ${text}`,
          )
          return messages.slice(0, count)
        },
        close: () => outgoing.destroy(),
      }
      readers.push(reader)
      resolve(reader)
    })
    outgoing.end()
  })
}

/** Opens a stream and waits for its `ready`; answers the reader and the ready's seq. */
export async function openReady(base: string, request: StreamRequest = {}) {
  const reader = await openStream(base, request)
  expect(reader.status).toBe(200)
  await waitUntil(
    () => reader.messages.some((message) => message.event === 'ready'),
    () => `a ready, got ${reader.text()}`,
  )
  const ready = reader.messages.find((message) => message.event === 'ready')
  return { reader, seq: Number(ready?.id) }
}

export async function waitUntil(condition: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${PATIENCE_MS} ms for ${what()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export function changeOf(message: EventSourceMessage): NewsChange {
  expect(message.event).toBe('change')
  const change = JSON.parse(message.data) as NewsChange
  expect(message.id).toBe(String(change.seq))
  return change
}
