/**
 * Counts the live streams (GET /api/events) each client holds open, in a place every server
 * shares, so that the cap per client is one cap however many servers answer. Each open stream
 * holds a lease; the server that holds it renews it while the stream lives, and a lease that is
 * not renewed (its server crashed) expires and stops counting. Rejects when it cannot count.
 */
export interface StreamLeases {
  /**
   * Takes a lease for one more stream of `client`, unless `client` holds `cap` live leases
   * already: the new lease's id, or undefined over the cap.
   */
  acquire(client: string, cap: number): Promise<string | undefined>
  /** Renews every lease this process holds, for another full term. */
  renew(): Promise<void>
  /** Gives a lease back: its stream has closed. */
  release(id: string): Promise<void>
}
