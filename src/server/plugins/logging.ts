import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import type { LogLevel } from '@/server/services/server-config'
import { isClientAbort, logClientAbort } from '@/server/plugins/error-handler'

/** The header every answer carries, and a proxy or client may set on a request. */
export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * A request id the server takes as it is: short, and of characters that need no escaping in a
 * log line or a header. Anything else (too long, spaces, quotes, control characters, two
 * headers) is replaced by a new one, so that no client can forge or garble the logs with it.
 */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/

/**
 * Fastify's `genReqId`: the incoming X-Request-Id if it is sane, else a new UUID. Fastify's own
 * `requestIdHeader` takes any value as it is, so the header is read here instead.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER]
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID()
}

/** Every answer tells its request id, which is on every log line of that request (`reqId`). */
export function registerRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
}

/** pino's `stdTimeFunctions.isoTime`: an ISO 8601 time in UTC, in place of epoch milliseconds. */
const isoTime = (): string => `,"time":"${new Date().toISOString()}"`

/** The server's logger: one JSON object per line on standard output, at LOG_LEVEL. */
export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return { level, timestamp: isoTime }
}

/**
 * One log line per request, when it completes: method, URL, client address, status and time,
 * never a body. Fastify's default adds an 'incoming request' line too, which doubled the cost
 * of logging in `npm run bench:api`.
 *
 * A live stream (GET /api/events) ends when its reader goes away: Fastify sees its body's pipe
 * close early. That is how every stream ends, so it is logged at debug, not info. Any other body
 * cut short that way (a file the client stopped downloading) is a client abort, at info.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return
    const entry = { req: request, res: reply, responseTime: reply.elapsedTime }
    if (!error) reply.log.info(entry, 'request completed')
    else if (isClientAbort(error, request)) logClientAbort(error, request)
    else reply.log.error({ ...entry, err: error }, 'request errored')
  }

  override streamError(
    error: Error & { code?: unknown },
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      reply.log.warn({ err: error }, 'stream failed after its headers were sent')
    } else if (isEventStream(reply)) {
      reply.log.debug({ res: reply }, 'stream ended: the reader went away')
    } else {
      logClientAbort(error, request)
    }
  }
}

function isEventStream(reply: FastifyReply): boolean {
  return String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')
}
