/** What one counted hit answers: the hits in the key's current window, and when it ends. */
export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  readonly count: number
  /** Milliseconds until the window ends and the count starts again from zero. */
  readonly resetInMs: number
}

/**
 * Counts hits per client key in fixed windows, in a place every server shares, so that the
 * write limit is one budget however many servers answer. Rejects when it cannot count; the
 * caller decides whether that lets the request through.
 */
export interface RateLimitCounter {
  hit(key: string, windowMs: number): Promise<RateLimitHit>
  /**
   * The hits in the key's current window without counting one: 0, and a whole window ahead,
   * when the key has none.
   */
  peek(key: string, windowMs: number): Promise<RateLimitHit>
}
