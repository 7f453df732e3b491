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

/** How the server's own tables (the budgets, the live streams' leases) are built. */
export interface ServerTableOptions {
  /** Told about each database failure before it is reported as Unavailable. */
  readonly onError?: StorageErrorListener
  /** The clock in milliseconds since the epoch; Date.now unless given, so tests can move it. */
  readonly now?: () => number
}

/**
 * What the server's own tables share: a clock, the guard that turns a database failure into
 * Unavailable, and a sweep of their expired rows at most once a period per process.
 */
export class TableUpkeep {
  readonly now: () => number
  readonly onError: StorageErrorListener | undefined
  /** Before this instant this process does not sweep again. */
  private nextSweepAt = 0

  constructor(options: ServerTableOptions) {
    this.now = options.now ?? Date.now
    this.onError = options.onError
  }

  /** Runs one operation on the table (guardStorage). */
  guard<T>(work: () => Promise<T>): Promise<T> {
    return guardStorage(work, this.onError)
  }

  /** Whether to sweep at `now`: once `periodMs` have passed since the last sweep began. */
  sweepDue(now: number, periodMs: number): boolean {
    if (now < this.nextSweepAt) return false
    this.nextSweepAt = now + periodMs
    return true
  }
}
