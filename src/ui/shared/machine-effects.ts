import { fromPromise } from 'xstate'
import { unavailable, type DomainError } from '@/domain/domain-error'
import type { Result } from '@/domain/result'
import { NOTICES } from '@/ui/shared/notices'

/**
 * The effects a machine may ask for. Machines declare them as no-op stubs in `setup()`;
 * the app fills them in with `machine.provide()`, and tests swap in their own.
 */
export type ToastKind = 'success' | 'error'
export interface ToastParams {
  readonly kind: ToastKind
  readonly message: string
}
export interface NavigateParams {
  readonly to: string
}

export const effectStubs = {
  showToast: (_: unknown, _params: ToastParams): void => undefined,
  navigate: (_: unknown, _params: NavigateParams): void => undefined,
}

/** Leaves a page that cannot be shown: the spec's 'not available' toast, then home. */
export const leaveForHome = [
  { type: 'showToast', params: { kind: 'error', message: NOTICES.notAvailable } },
  { type: 'navigate', params: { to: '/' } },
] as const

/** A promise actor that stands for a use case until the app provides the real one. */
export function stubUseCase<Output, Input>() {
  return fromPromise<Output, Input>(async () => {
    throw unavailable()
  })
}

/** Turns a use case's Result into a promise actor that rejects with the DomainError. */
export function fromUseCase<Output, Input>(run: (input: Input) => Promise<Result<Output>>) {
  return fromPromise<Output, Input>(async ({ input }) => {
    const result = await run(input)
    if (!result.ok) throw result.error
    return result.value
  })
}

/** Narrows what an actor rejected with; anything unexpected counts as Unavailable. */
export function asDomainError(thrown: unknown): DomainError {
  if (typeof thrown === 'object' && thrown !== null && 'code' in thrown) {
    const { code } = thrown as { code: unknown }
    if (code === 'NotFound' || code === 'Unavailable' || code === 'ValidationFailed') {
      return thrown as DomainError
    }
  }
  return unavailable()
}

export function isNotFound(thrown: unknown): boolean {
  return asDomainError(thrown).code === 'NotFound'
}

/** The per-field messages of a ValidationFailed error, or none. */
export function fieldErrorsOf(thrown: unknown): Readonly<Record<string, string>> {
  const error = asDomainError(thrown)
  return error.code === 'ValidationFailed' ? error.fields : {}
}
