import { STATUS_CODES } from 'node:http'
import { PROBLEM_TYPES, type Problem } from '@/contract/problem.schema'
import type { ConflictReason, DomainError, Refusal } from '@/domain/domain-error'
import type { Result } from '@/domain/result'
import { etagOf } from '@/server/services/preconditions'

export function problem(
  status: number,
  detail: string,
  errors?: Readonly<Record<string, string>>,
): Problem {
  const base = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail }
  return errors === undefined ? base : { ...base, errors }
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
  protected: 'The operator protected this post: only the operator may change it.',
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
    case 'Forbidden':
      return refusalProblem(error)
  }
}

/** A 403 of the operator's tools, typed so that a client can tell a block from a protection. */
function refusalProblem(refusal: Refusal): Problem {
  if (refusal.reason === 'protected') {
    return { ...problem(403, DETAILS.protected), type: PROBLEM_TYPES.protected }
  }
  const until = refusal.until === null ? 'until the operator lifts it' : `until ${refusal.until}`
  const because = refusal.note === '' ? '' : ` Reason: ${refusal.note}`
  return {
    ...problem(403, `The operator blocked writes from your address ${until}.${because}`),
    type: PROBLEM_TYPES.blocked,
    reason: refusal.note,
    until: refusal.until,
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

/**
 * A problem on its way to the reply. Routes and hooks throw it (`refuse`, `valueOf`), and the
 * error handler answers it (error-handler.ts): the one exit every failure leaves a route by.
 */
export class ProblemError extends Error {
  constructor(
    readonly problem: Problem,
    /** Headers the answer carries besides the problem's own (a 412's ETag). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(problem.detail)
    this.name = 'ProblemError'
  }
}

/** Ends the route with this problem (and `headers`). */
export function refuse(
  status: number,
  detail: string,
  headers: Readonly<Record<string, string>> = {},
): never {
  throw new ProblemError(problem(status, detail), headers)
}

/**
 * The value of a use case's result, or its failure as a problem (`invalidStatus` as problemOf
 * takes it) with `headers`; a Stale failure names the stored version in its ETag.
 */
export function valueOf<T>(
  result: Result<T>,
  invalidStatus = 422,
  headers: Readonly<Record<string, string>> = {},
): T {
  if (result.ok) return result.value
  const { error } = result
  throw new ProblemError(
    problemOf(error, invalidStatus),
    error.code === 'Stale' ? { ...headers, etag: etagOf(error.current) } : headers,
  )
}
