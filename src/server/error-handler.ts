import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { QUERY_MESSAGES } from '@/server/news.schema'
import { DETAILS, problem, rateLimitedDetail, sendProblem, type Problem } from '@/server/problem'

export const BODY_LIMIT_BYTES = 16 * 1024

/** Safe words for the client errors Fastify and its plugins raise; never their internal text. */
const CLIENT_ERROR_DETAILS: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: `The body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.`,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the body as application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length does not match the body.',
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
  request.log.error({ err: error }, 'request failed')
  return status === 503 ? problem(503, DETAILS.unavailable) : problem(500, DETAILS.internal)
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

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    sendProblem(reply, problemForError(error, request, reply))
  })
}
