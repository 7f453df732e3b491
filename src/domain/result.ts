import { toDomainError, type DomainError } from '@/domain/domain-error'

/** What every use case returns: a value, or a typed domain error. It never throws. */
export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DomainError }

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = <T = never>(error: DomainError): Result<T> => ({ ok: false, error })

/** Runs a port call as a Result: its value, or the domain error it rejected with. */
export async function attempt<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await work())
  } catch (thrown) {
    return fail(toDomainError(thrown))
  }
}
