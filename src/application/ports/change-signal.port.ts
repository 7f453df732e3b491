/**
 * How far the shared data has moved on: a number that every committed write raises, in the same
 * transaction as the write, and that every server sharing the database reads alike. A server
 * may keep an answer in memory only while the version it was built at is still the current one
 * (the first-page cache does; a later cross-server change feed can watch the same number).
 */
export interface ChangeSignal {
  /**
   * The current version; it never goes down while the database lives. Rejects with
   * the Unavailable DomainError when the store cannot answer.
   */
  version(): Promise<number>
}
