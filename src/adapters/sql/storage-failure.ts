import { isDomainError, unavailable } from '@/domain/domain-error'

/** Told about each storage failure that is reported as Unavailable, e.g. to log it. */
export type StorageErrorListener = (error: unknown) => void

/**
 * Runs one storage operation. Domain errors pass through; anything else (a driver or SQL
 * error) becomes Unavailable, so that no SQL detail reaches a caller.
 */
export async function guardStorage<T>(
  work: () => Promise<T>,
  onError?: StorageErrorListener,
): Promise<T> {
  try {
    return await work()
  } catch (thrown) {
    if (isDomainError(thrown)) throw thrown
    onError?.(thrown)
    throw unavailable()
  }
}
