import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'

/** Why a write conflicts with the post's state rather than with its fields. */
export type ConflictReason =
  /** A restore from the trash, of a post that is not in it. */
  | 'NotInTrash'
  /** A change to an old version of a post that is in the trash. */
  | 'InTrash'
  /** An idempotency key that was used, within its lifetime, for a different post. */
  | 'KeyReused'

/** Failures the core knows about. Adapters turn transport failures into these. */
export type DomainError =
  /** No live post has this id; `trashed` is the post when it waits in the trash. */
  | { readonly code: 'NotFound'; readonly trashed?: TrashedNewsItem }
  | { readonly code: 'ValidationFailed'; readonly fields: Readonly<Record<string, string>> }
  | { readonly code: 'Unavailable' }
  /** The write named a version of the post that is no longer current; nothing changed. */
  | { readonly code: 'Stale'; readonly current: NewsItem }
  | { readonly code: 'Conflict'; readonly reason: ConflictReason }
  /** Too many writes from this client; try again after the given number of seconds. */
  | { readonly code: 'RateLimited'; readonly retryAfterSeconds: number }
  /** The operator refused the write: see Refusal. */
  | ({ readonly code: 'Forbidden' } & Refusal)

/**
 * Why the operator's tools refuse a visitor's write: the client is blocked (until `until`, or
 * until the block is lifted when that is null, for the operator's `note`), or the post is
 * protected, so that only the operator may change it.
 */
export type Refusal =
  | { readonly reason: 'blocked'; readonly note: string; readonly until: string | null }
  | { readonly reason: 'protected' }

export type DomainErrorCode = DomainError['code']

export const DOMAIN_ERROR_CODES: readonly DomainErrorCode[] = [
  'NotFound',
  'ValidationFailed',
  'Unavailable',
  'Stale',
  'Conflict',
  'RateLimited',
  'Forbidden',
]

const KNOWN_CODES = new Set<unknown>(DOMAIN_ERROR_CODES)

export const notFound = (): DomainError => ({ code: 'NotFound' })
/** A read of a post that is in the trash: not found among the live posts, but restorable. */
export const inTrash = (trashed: TrashedNewsItem): DomainError => ({ code: 'NotFound', trashed })
export const unavailable = (): DomainError => ({ code: 'Unavailable' })
export const validationFailed = (fields: Readonly<Record<string, string>>): DomainError => ({
  code: 'ValidationFailed',
  fields,
})
export const stale = (current: NewsItem): DomainError => ({ code: 'Stale', current })
export const conflict = (reason: ConflictReason): DomainError => ({ code: 'Conflict', reason })
export const rateLimited = (retryAfterSeconds: number): DomainError => ({
  code: 'RateLimited',
  retryAfterSeconds,
})

export const forbidden = (refusal: Refusal): DomainError => ({ code: 'Forbidden', ...refusal })

/**
 * The one form of a failure: ports reject with the DomainError value itself, a use case's Result
 * carries that same object as `error`, and a screen's machine receives it as its actor's error.
 * A DomainError is a plain object with a known code, never an Error, so that nothing else
 * thrown (a driver's error, a bug) can pass for one.
 */
export function isDomainError(thrown: unknown): thrown is DomainError {
  return (
    typeof thrown === 'object' &&
    thrown !== null &&
    !(thrown instanceof Error) &&
    KNOWN_CODES.has((thrown as { code?: unknown }).code)
  )
}

/** What was thrown, when it is a DomainError; anything else counts as Unavailable. */
export function toDomainError(thrown: unknown): DomainError {
  return isDomainError(thrown) ? thrown : unavailable()
}
