import { isDomainError, type DomainError } from '@/domain/domain-error'

/** The domain error a port call rejects with; fails the test if it resolves or throws another. */
export async function domainErrorOf(call: Promise<unknown>): Promise<DomainError> {
  try {
    await call
  } catch (thrown) {
    if (isDomainError(thrown)) return thrown
    throw thrown
  }
  throw new Error('expected the call to fail')
}
