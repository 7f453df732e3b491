import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { LeaseAnswer } from '@/application/ports/stream-leases.port'
import { attempt } from '@/domain/result'
import { ChangeWatcher } from '@/server/services/change-watcher'
import { OpenResponses } from '@/server/plugins/connection-limits'
import { EventStream, type EventStreamSettings } from '@/server/services/event-stream'
import { EVENTS_SCHEMA, MAX_RESUME_POINT } from '@/server/routes/events.schema'
import { refuse, valueOf } from '@/server/services/problem'

/** Seconds a client over the cap is told to wait: by then any lease no server renews has expired. */
export const STREAM_RETRY_AFTER_S = 60

/**
 * Seconds a client is told to wait when this server holds all the streams it may: readers come
 * and go, and a balancer may send it to another server meanwhile.
 */
export const SERVER_FULL_RETRY_AFTER_S = 30

const RESUME_POINT = /^\d{1,16}$/

export const BAD_RESUME_POINT = `Last-Event-ID and since must each be a whole number from 0 to ${MAX_RESUME_POINT}.`

export const tooManyStreamsDetail = (cap: number) =>
  `This address has ${cap} live streams open already. Close one, or retry in ${STREAM_RETRY_AFTER_S} s.`

export const tooManyReconnectsDetail = (budget: number, seconds: number) =>
  `This address has closed ${budget} live streams within a minute. Retry in ${seconds} s.`

export const SERVER_FULL_DETAIL = `This server holds all the live streams it may. Retry in ${SERVER_FULL_RETRY_AFTER_S} s.`

/**
 * GET /api/events, the live stream (README, the live stream; docs/architecture.md). The
 * stream's reads go through the ChangeFeed the app is decorated with; this process's streams
 * share one ChangeWatcher, which the server's close stops first, ending every stream so that a
 * stop is not held up by them.
 *
 * A server holds at most MAX_STREAMS streams (503 past it, before the database is asked), and a
 * client address at most `perAddress` open and `reconnectsPerMinute` closed within the last
 * minute, across servers (429 past either). The feed, the change signal, the leases and the
 * settings are the app's decorations, which it has only when it serves the stream.
 *
 * The framing is eventsource-encoder's (event-stream.ts), and the body a stream that Fastify
 * pipes to the response, so that the response keeps the app's headers and its log line.
 * @fastify/sse was weighed and left: its current release needs Node 20.20.2 (NewsWire supports
 * 20.19), it leaves out an `id` of 0, its per-stream heartbeat timers write past a full buffer,
 * and the route would still need its own headers, close and lease handling. The
 * route opts out of compression, which would hold messages back until a block fills. Node's
 * request and headers timeouts end once a GET's headers have arrived, and the keep-alive timeout
 * only runs between requests, so none of them cuts a stream; a reader that stops reading is
 * dropped by EventStream instead.
 */
export const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { changeFeed: feed, streamLeases: leases, eventStreamSettings: settings } = app
  const watcher = new ChangeWatcher(app.changeSignal, feed, leases, settings, app.log)
  // MAX_STREAMS, so that the rest of the server's connections (MAX_CONNECTIONS) stay free.
  const streams = new OpenResponses(app.config.maxStreams)
  app.metrics.countStreams(() => streams.size)
  app.addHook('preClose', () => watcher.close())

  app.get('/api/events', { schema: EVENTS_SCHEMA, compress: false }, async (request, reply) => {
    const since = resumePointOf(request.headers['last-event-id'], request.query.since)
    if (since === null) refuse(400, BAD_RESUME_POINT)

    if (!streams.take(reply.raw)) {
      refuse(503, SERVER_FULL_DETAIL, { 'retry-after': String(SERVER_FULL_RETRY_AFTER_S) })
    }
    // Counted by client as the write limit counts (an IPv6 client by its /64, under its
    // pseudonym); request.ip honours TRUST_PROXY.
    const leased = valueOf(
      await attempt(() =>
        leases.acquire(app.clientKeyOf(request), {
          open: settings.perAddress,
          reconnectsPerMinute: settings.reconnectsPerMinute,
        }),
      ),
    )
    if (!leased.taken) {
      const { seconds, detail } = refusalOf(leased, settings)
      refuse(429, detail, { 'retry-after': String(seconds) })
    }
    const lease = leased.id

    const stream = new EventStream(reply.raw, settings.maxBufferedBytes)
    valueOf(await attempt(() => watcher.join(stream, () => leases.release(lease))))
    const start = await feed.start(since)
    if (!start.ok) watcher.leave(stream)
    const position = valueOf(start)

    reply.headers({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // nginx and others buffer proxied answers unless told not to (docs/operations.md).
      'x-accel-buffering': 'no',
    })
    stream.open(position)
    // A stream that arrives while the server stops gets its start; its reader reconnects.
    if (watcher.closing) stream.end()
    return reply.send(stream.body)
  })
}

/** What a client over one of its limits is told, and how many seconds it should wait. */
function refusalOf(
  refused: Extract<LeaseAnswer, { taken: false }>,
  settings: EventStreamSettings,
): { readonly seconds: number; readonly detail: string } {
  if (refused.over === 'open') {
    return { seconds: STREAM_RETRY_AFTER_S, detail: tooManyStreamsDetail(settings.perAddress) }
  }
  const seconds = Math.max(
    1,
    Math.ceil((refused.retryAfterMs ?? STREAM_RETRY_AFTER_S * 1000) / 1000),
  )
  return { seconds, detail: tooManyReconnectsDetail(settings.reconnectsPerMinute, seconds) }
}

/**
 * The resume point of a request: Last-Event-ID (an EventSource's own reconnect) over `since`
 * (a page's new EventSource); undefined when neither is given, null when either is malformed.
 */
export function resumePointOf(
  header: string | undefined,
  query: string | undefined,
): number | undefined | null {
  const given = [header, query].flatMap((value) => (value === undefined ? [] : [value]))
  const positions = given.map((value) => (RESUME_POINT.test(value) ? Number(value) : Number.NaN))
  if (positions.some((position) => !(position <= MAX_RESUME_POINT))) return null
  return positions[0]
}
