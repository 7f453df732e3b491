import {
  conflict,
  forbidden,
  inTrash,
  notFound,
  rateLimited,
  stale,
  unavailable,
  validationFailed,
  type ConflictReason,
  type DomainError,
} from '@/domain/domain-error'
import { discardBody } from '@/adapters/http/json-http.client'
import { currentItemOf, fieldMessagesOf, trashedItemOf } from '@/adapters/http/response.guards'
import { retryAfterSecondsOf } from '@/adapters/http/retry-after.parser'
import { refusalOf } from '@/adapters/shared/refusal'

/* The API's failing answers, read as the domain's errors for the HTTP news repository. */

/** What a failing answer can mean for one call. */
export interface Call {
  /** Whether the call names one post: a 404 is NotFound only then (else a wrong API address). */
  readonly addressed: 'collection' | 'item'
  /** What a 409 says about the post for this call; for other calls a 409 is Unavailable. */
  readonly conflict?: ConflictReason
  /** Whether the call sent an Idempotency-Key, so a 422 without field messages means reuse. */
  readonly keyed?: boolean
}

export const ON_ITEM: Call = { addressed: 'item' }
export const ON_COLLECTION: Call = { addressed: 'collection' }

/**
 * What a failing answer means. Only the parts of a problem that the domain has words for are
 * read (field messages, the current post of a 412, the wait of a 429); everything else is
 * Unavailable, and the server's own words never travel further.
 */
export async function failureOf(response: Response, call: Call): Promise<DomainError> {
  switch (response.status) {
    case 403: {
      const refusal = refusalOf(await problemOf(response))
      return refusal === undefined ? unavailable() : forbidden(refusal)
    }
    case 404: {
      if (call.addressed !== 'item') break
      // A read of a post in the trash names it, so that the page can say where it is.
      const trashed = trashedItemOf(await problemOf(response))
      return trashed === undefined ? notFound() : inTrash(trashed)
    }
    case 409:
      if (call.conflict === undefined) break
      discardBody(response)
      return conflict(call.conflict)
    case 412: {
      const current = currentItemOf(await problemOf(response))
      return current === undefined ? unavailable() : stale(current)
    }
    case 422: {
      const fields = fieldMessagesOf(await problemOf(response))
      if (fields !== undefined) return validationFailed(fields)
      return call.keyed === true ? conflict('KeyReused') : unavailable()
    }
    case 429: {
      discardBody(response)
      const { headers } = response
      return rateLimited(retryAfterSecondsOf(headers.get('retry-after'), headers.get('date')))
    }
  }
  discardBody(response)
  return unavailable()
}

function problemOf(response: Response): Promise<unknown> {
  return response.json().catch(() => undefined)
}
