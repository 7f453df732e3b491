/** How many live streams one client may have, across every server. */
export interface StreamLeaseLimits {
  /** Streams open at once. */
  readonly open: number
  /**
   * Streams that closed within the last minute: each counts against the client's next
   * streams, so that a client looping reconnects (each a replay) is held to this many a minute.
   */
  readonly reconnectsPerMinute: number
}

/** A lease taken, or why not and how long until a place frees up at the latest. */
export type LeaseAnswer =
  | { readonly taken: true; readonly id: string }
  | {
      readonly taken: false
      /** `open`: the client holds `limits.open` streams; `reconnects`: its budget is used. */
      readonly over: 'open' | 'reconnects'
      /** Milliseconds until the oldest closed stream stops counting (`reconnects` only). */
      readonly retryAfterMs?: number
    }

/**
 * Counts the live streams (GET /api/events) each client holds open, and those it closed in the
 * last minute, in a place every server shares, so that the caps per client are one cap however
 * many servers answer. Each open stream holds a lease; the server that holds it renews it while
 * the stream lives, and a lease that is not renewed (its server crashed) expires and stops
 * counting. Rejects when it cannot count.
 */
export interface StreamLeases {
  /** Takes a lease for one more stream of `client`, unless that passes one of `limits`. */
  acquire(client: string, limits: StreamLeaseLimits): Promise<LeaseAnswer>
  /** Renews every lease this process holds, for another full term. */
  renew(): Promise<void>
  /** Gives a lease back: its stream has closed, and counts as a reconnect for a minute. */
  release(id: string): Promise<void>
}
