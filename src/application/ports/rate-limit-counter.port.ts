/** What one reservation answers: whether it took a unit, and the state of the key's window. */
export interface RateLimitReservation {
  /** Whether a unit was taken; false when the key's window already held `max`. */
  readonly granted: boolean
  /** Units the key's current window holds after the call (this one included when granted). */
  readonly count: number
  /** Milliseconds until the window ends and the count starts again from zero. */
  readonly resetInMs: number
  /** The window's end, in ms since the epoch: what names the window a unit goes back to. */
  readonly windowEnd: number
}

/**
 * Budgets per client key in fixed windows, in a place every server shares, so that a budget is
 * one however many servers answer. A unit is reserved before the work it pays for, atomically
 * against the budget's `max`, so that work sent at once can never hold more than `max` units;
 * work that turns out not to count gives its unit back. Rejects when it cannot count; the
 * caller decides whether that lets the request through.
 */
export interface RateLimitCounter {
  /**
   * Takes one unit of `key`'s current window if it holds fewer than `max` (at least 1); a key
   * whose window has ended (or that has none) starts a window of `windowMs` with this unit.
   */
  reserve(key: string, windowMs: number, max: number): Promise<RateLimitReservation>
  /**
   * Returns one unit a granted reservation took, to the window it was taken from (named by its
   * `windowEnd`): once that window has ended there is nothing to give back.
   */
  giveBack(key: string, windowEnd: number): Promise<void>
}
