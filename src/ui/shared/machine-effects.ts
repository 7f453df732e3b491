import { fromPromise } from 'xstate'
import {
  toDomainError,
  unavailable,
  type ConflictReason,
  type DomainError,
} from '@/domain/domain-error'
import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { Result } from '@/domain/result'
import { NOTICES } from '@/ui/shared/notices'
import { paths } from '@/ui/shared/paths'

/**
 * The effects a machine may ask for. Machines declare them as no-op stubs in `setup()`;
 * the app fills them in with `machine.provide()`, and tests swap in their own.
 */
export type ToastKind = 'success' | 'error'

/**
 * What a toast's button asks the app to do, as data: machines stay pure, and the app's edge
 * performs it when the visitor presses the button (send the event to the news store, or go to
 * the path).
 */
export type ToastIntent =
  | { readonly type: 'news.restore'; readonly id: string }
  | { readonly type: 'navigate'; readonly to: string }

export interface ToastAction {
  /** The button's text, one of TOAST_ACTIONS. */
  readonly label: string
  readonly intent: ToastIntent
}

export interface ToastParams {
  readonly kind: ToastKind
  readonly message: string
  /** A button the toast carries while it shows. */
  readonly action?: ToastAction
}

export interface NavigateParams {
  readonly to: string
  /** Replace the current history entry, so that Back never lands on a redirect again. */
  readonly replace?: boolean
}

export const effectStubs = {
  showToast: (_: unknown, _params: ToastParams): void => undefined,
  navigate: (_: unknown, _params: NavigateParams): void => undefined,
}

/** Leaves a page that cannot be shown: the spec's 'not available' toast, then home. */
export const leaveForHome = [
  { type: 'showToast', params: { kind: 'error', message: NOTICES.notAvailable } },
  { type: 'navigate', params: { to: paths.home(), replace: true } },
] as const

/** A promise actor that stands for a use case until the app provides the real one. */
export function stubUseCase<Output, Input>() {
  return fromPromise<Output, Input>(async () => {
    throw unavailable()
  })
}

/**
 * A use case as a promise actor that rejects with the DomainError its Result carries: the very
 * object the adapter made, which the machine's `onError` receives as `event.error`.
 */
export function fromUseCase<Output, Input>(run: (input: Input) => Promise<Result<Output>>) {
  return fromPromise<Output, Input>(async ({ input }) => {
    const result = await run(input)
    if (!result.ok) throw result.error
    return result.value
  })
}

/**
 * What an actor rejected with (XState types it unknown), as the DomainError it is; anything
 * else, such as a bug, counts as Unavailable.
 */
export const asDomainError: (thrown: unknown) => DomainError = toDomainError

/** True when an actor rejected with a Conflict for `reason`. */
export function isConflict(thrown: unknown, reason: ConflictReason): boolean {
  const error = asDomainError(thrown)
  return error.code === 'Conflict' && error.reason === reason
}

export function isNotFound(thrown: unknown): boolean {
  return asDomainError(thrown).code === 'NotFound'
}

/** Whether the operator refused the write: the client is blocked, or the post protected. */
export function isForbidden(thrown: unknown): boolean {
  return asDomainError(thrown).code === 'Forbidden'
}

/** The post a read found in the trash (a NotFound that names it), or undefined. */
export function trashedOf(thrown: unknown): TrashedNewsItem | undefined {
  const error = asDomainError(thrown)
  return error.code === 'NotFound' ? error.trashed : undefined
}

export function isStale(thrown: unknown): boolean {
  return asDomainError(thrown).code === 'Stale'
}

/**
 * The stored post a write was refused with because it named an old revision. Only for an error
 * that `isStale` accepted.
 */
export function staleCurrent(thrown: unknown): NewsItem {
  const error = asDomainError(thrown)
  if (error.code !== 'Stale') throw new Error(`expected a Stale error, not ${error.code}`)
  return error.current
}

/** The per-field messages of a ValidationFailed error, or none. */
export function fieldErrorsOf(thrown: unknown): Readonly<Record<string, string>> {
  const error = asDomainError(thrown)
  return error.code === 'ValidationFailed' ? error.fields : {}
}

/**
 * The error toast for a failed write: when to try again after the write limit (429 with
 * Retry-After), the operator's block (until when, and why) or protection of the post, else the
 * screen's own failure text.
 */
export function failureNotice(thrown: unknown, otherwise: string): ToastParams {
  return { kind: 'error', message: failureText(asDomainError(thrown), otherwise) }
}

/** The words for a failed write whose cause the visitor can act on, else `otherwise`. */
function failureText(error: DomainError, otherwise: string): string {
  if (error.code === 'RateLimited') return NOTICES.rateLimited(error.retryAfterSeconds)
  if (error.code !== 'Forbidden') return otherwise
  if (error.reason === 'protected') return NOTICES.protectedPost
  return NOTICES.blocked(error.until, error.note)
}

/** The `showToast` params for a machine's `onError`: see failureNotice. */
export const failureToast =
  (otherwise: string) =>
  ({ event }: { readonly event: { readonly error?: unknown } }): ToastParams =>
    failureNotice(event.error, otherwise)
