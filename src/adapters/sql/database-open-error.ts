/**
 * Why a database could not be opened, in one line that names the path or the host and port
 * (never the password), with `fix` saying what the operator should change.
 */
export class DatabaseOpenError extends Error {
  constructor(
    message: string,
    readonly fix: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'DatabaseOpenError'
  }
}

/** Builds the DatabaseOpenError for one open: the reason, what to fix, and the driver's error. */
export type Failure = (reason: string, fix: string, cause: unknown) => DatabaseOpenError

export function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code
    if (typeof code === 'string') return code
  }
  return 'unknown'
}

export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\s*\n\s*/g, ' ').trim()
}
