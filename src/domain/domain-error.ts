/** Failures the core knows about. Adapters turn transport failures into these. */
export type DomainError =
  | { readonly code: 'NotFound' }
  | { readonly code: 'ValidationFailed'; readonly fields: Readonly<Record<string, string>> }
  | { readonly code: 'Unavailable' }

export type DomainErrorCode = DomainError['code']

export const notFound = (): DomainError => ({ code: 'NotFound' })
export const unavailable = (): DomainError => ({ code: 'Unavailable' })
export const validationFailed = (fields: Readonly<Record<string, string>>): DomainError => ({
  code: 'ValidationFailed',
  fields,
})

/**
 * Ports reject with a DomainErrorException so that a failure keeps its code across `await`.
 * Anything else a port throws is treated as Unavailable.
 */
export class DomainErrorException extends Error {
  constructor(readonly error: DomainError) {
    super(error.code)
    this.name = 'DomainErrorException'
  }
}

export function toDomainError(thrown: unknown): DomainError {
  return thrown instanceof DomainErrorException ? thrown.error : unavailable()
}
