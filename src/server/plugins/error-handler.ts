import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { QUERY_MESSAGES } from '@/contract/route-parts.schema'
import {
  DETAILS,
  problem,
  ProblemError,
  rateLimitedDetail,
  refuse,
} from '@/server/services/problem'
import { PROBLEM_CONTENT_TYPE, type Problem } from '@/contract/problem.schema'

export const BODY_LIMIT_BYTES = 16 * 1024

/** Safe words for the client errors Fastify and its plugins raise; never their internal text. */
const CLIENT_ERROR_DETAILS: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: `The body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.`,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the body as application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length does not match the body.',
  FST_ERR_BAD_URL: 'The URL is not validly encoded.',
  FST_ERR_MAX_PARAM_LENGTH: 'A segment of the path is too long.',
}

/**
 * Maps every thrown error to a problem. A 5xx answers a generic detail and is logged with
 * its stack here, so nothing internal reaches the client.
 */
export function problemForError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): Problem {
  if (error instanceof ProblemError) {
    reply.headers(error.headers)
    return error.problem
  }
  const status = error.statusCode ?? 500
  if (error.validation !== undefined) return validationProblem(error)
  if (status === 429) {
    const seconds = reply.getHeader('retry-after') ?? 60
    return problem(429, rateLimitedDetail(String(seconds)))
  }
  if (status >= 400 && status < 500) {
    const detail =
      CLIENT_ERROR_DETAILS[error.code] ??
      (error instanceof SyntaxError
        ? CLIENT_ERROR_DETAILS.FST_ERR_CTP_INVALID_JSON_BODY
        : undefined)
    return problem(status, detail ?? problem(status, '').title)
  }
  if (isClientAbort(error, request)) {
    logClientAbort(error, request)
    return problem(400, CUT_SHORT_DETAIL)
  }
  request.log.error({ err: error }, 'request failed')
  return status === 503 ? problem(503, DETAILS.unavailable) : problem(500, DETAILS.internal)
}

const CUT_SHORT_DETAIL = 'The request was cut short: the client closed the connection.'

// What reading a request or writing its answer fails with when the client closes or resets
// the connection: Node's request stream ('aborted'), a pipeline's 'premature close', a write to
// a socket the client reset or shut.
const CONNECTION_GONE_CODES = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
])
const CONNECTION_GONE_MESSAGES = new Set(['aborted', 'premature close'])

/**
 * Whether `error` is the client going away before its answer, not a fault of the server: an
 * error of a closed connection, and the request's own connection closed indeed. Both, so that
 * the same codes from elsewhere (a database connection reset) while the client still waits are
 * logged as the faults they are.
 */
export function isClientAbort(error: Error & { code?: unknown }, request: FastifyRequest): boolean {
  const closedConnection =
    (typeof error.code === 'string' && CONNECTION_GONE_CODES.has(error.code)) ||
    CONNECTION_GONE_MESSAGES.has(error.message)
  const socket = request.raw.socket as { destroyed?: boolean } | null | undefined
  return closedConnection && (request.raw.destroyed || socket?.destroyed === true)
}

/** A client that left is routine: logged at info, with the code and no stack. */
export function logClientAbort(error: Error & { code?: unknown }, request: FastifyRequest): void {
  request.log.info(
    { code: error.code ?? error.message },
    'client closed the connection before the answer',
  )
}

function validationProblem(error: FastifyError): Problem {
  // Bodies are checked by the domain before the schema runs (see news.routes.ts), so a schema
  // failure left here is about the query or the path: a 400 naming each parameter.
  const errors: Record<string, string> = {}
  for (const issue of error.validation ?? []) {
    const field =
      issue.instancePath.replace(/^\//, '') ||
      String((issue.params as { missingProperty?: unknown }).missingProperty ?? 'request')
    errors[field] ??= QUERY_MESSAGES[field] ?? 'Is not valid'
  }
  const status = error.validationContext === 'body' ? 422 : 400
  const detail =
    status === 422 ? DETAILS.invalidPost : 'The query or path parameters are not valid; see errors.'
  return problem(status, detail, errors)
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route runs (a URL it cannot
 * decode, an over-long path segment) answers a problem like every other error. Fastify's own
 * answer would repeat the URL.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  sendProblem(reply, problemForError(error, request, reply))
}

/**
 * The one exit every problem leaves by: routes and hooks throw theirs (`refuse`, `valueOf`),
 * and only this sends one. Serialised here so that no route's success schema ever shapes an
 * error body.
 */
function sendProblem(reply: FastifyReply, value: Problem): FastifyReply {
  return reply.code(value.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(value))
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    sendProblem(reply, problemForError(error, request, reply))
  })
  answerMalformedForms(app)
}

export const MALFORMED_FORM_DETAIL = 'The body is not a well-formed multipart form.'

// What busboy (under @fastify/multipart) throws for a form it cannot read: no boundary, an empty
// or overlong one, a body cut short. Plain errors without a code, so they are known by their text.
const MALFORMED_FORM_ERRORS = [
  /^Multipart: Boundary not found$/,
  /^Boundary required$/,
  /^The needle cannot /,
  /unexpected end of multipart data$/i,
]

function isMalformedForm(error: unknown): error is Error {
  return (
    error instanceof Error &&
    (error as Partial<FastifyError>).statusCode === undefined &&
    MALFORMED_FORM_ERRORS.some((pattern) => pattern.test(error.message))
  )
}

/**
 * A form the parser cannot read is the client's mistake, but its errors carry no status, so a
 * route's own error handler (the outbox's answers EmailJS-style text) would take it for the
 * server's: a 500 logged with its stack. Every route that consumes multipart forms refuses it with
 * a 400 problem instead, logged at info without a stack.
 */
function answerMalformedForms(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const consumes = (route.schema as { consumes?: readonly string[] } | undefined)?.consumes
    if (consumes?.includes('multipart/form-data') !== true) return
    const handler = route.handler
    route.handler = async function (this: FastifyInstance, request, reply) {
      try {
        return await handler.call(this, request, reply)
      } catch (error) {
        if (!isMalformedForm(error)) throw error
        request.log.info({ reason: error.message }, 'malformed form')
        refuse(400, MALFORMED_FORM_DETAIL)
      }
    }
  })
}
