import { STATUS_CODES } from 'node:http'
import type { FastifyReply } from 'fastify'
import { Type, type Static } from 'typebox'
import { NewsItemSchema, TrashedNewsItemSchema } from '@/adapters/http/news.wire-schemas'
import type { ConflictReason, DomainError } from '@/domain/domain-error'

/**
 * An RFC 9457 problem body. `errors` maps a field to the same message the form shows.
 */
export const ProblemSchema = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.String())),
})

/** The problem of a 412: `current` is the post as it is stored now, so that a client can show what changed. */
export const StaleProblemSchema = Type.Object({
  ...ProblemSchema.properties,
  current: NewsItemSchema,
})

/**
 * The problem of a 404 for a post that is in the trash: `trashed` is the post, which
 * `POST /api/news/:id/restore` brings back.
 */
export const TrashedProblemSchema = Type.Object({
  ...ProblemSchema.properties,
  trashed: TrashedNewsItemSchema,
})

export type Problem = Readonly<
  | Static<typeof ProblemSchema>
  | Static<typeof StaleProblemSchema>
  | Static<typeof TrashedProblemSchema>
>

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8'

export function problem(
  status: number,
  detail: string,
  errors?: Readonly<Record<string, string>>,
): Problem {
  const base = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail }
  return errors === undefined ? base : { ...base, errors }
}

export function sendProblem(reply: FastifyReply, value: Problem): FastifyReply {
  // Serialised here so that no route's success schema ever shapes an error body.
  return reply.code(value.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(value))
}

export const DETAILS = {
  notFound: 'No news post has this id.',
  inTrash:
    'The post is in the trash (Recently deleted); POST /api/news/:id/restore brings it back. `trashed` is the post.',
  noRevision: 'No news post has this id, or it has no revision of this number.',
  stale: 'The post was changed meanwhile; nothing was changed. `current` is the stored post.',
  badIdempotencyKey: 'The Idempotency-Key must be 1 to 255 visible ASCII characters.',
  unknownApi: 'There is no such API path.',
  invalidPost: 'The post is not valid; see errors.',
  unavailable: 'The service is unavailable right now. Try again later.',
  internal: 'Something went wrong on our side. Try again later.',
  foreignOrigin: 'The outbox accepts forms only from the site’s own pages.',
} as const

/** How a use case's failure reads over HTTP. `invalidStatus` is 422 for bodies, 400 for query parameters. */
export function problemOf(error: DomainError, invalidStatus = 422): Problem {
  switch (error.code) {
    case 'NotFound':
      return error.trashed === undefined
        ? problem(404, DETAILS.notFound)
        : { ...problem(404, DETAILS.inTrash), trashed: error.trashed }
    case 'ValidationFailed':
      return problem(
        invalidStatus,
        invalidStatus === 422 ? DETAILS.invalidPost : 'The query is not valid; see errors.',
        error.fields,
      )
    case 'Unavailable':
      return problem(503, DETAILS.unavailable)
    case 'Stale':
      return { ...problem(412, DETAILS.stale), current: error.current }
    case 'Conflict':
      return error.reason === 'KeyReused'
        ? problem(422, CONFLICT_DETAILS.KeyReused)
        : problem(409, CONFLICT_DETAILS[error.reason])
    case 'RateLimited':
      return problem(429, rateLimitedDetail(error.retryAfterSeconds))
  }
}

export function rateLimitedDetail(seconds: number | string): string {
  return `Too many writes from your address. Retry in ${String(seconds)} s.`
}

const CONFLICT_DETAILS: Readonly<Record<ConflictReason, string>> = {
  NotInTrash: 'The post is not in the trash.',
  InTrash: 'The post is in the trash; restore it before restoring one of its versions.',
  KeyReused:
    'This Idempotency-Key was used for a different post in the last 24 hours; send a new key.',
}

export const problemResponse = (description: string) =>
  ({
    description,
    content: { 'application/problem+json': { schema: ProblemSchema } },
  }) as const
