/**
 * Identical reads (the same page, the same post) that arrive together share one query. Under
 * load, the requests one turn of the event loop delivers ask alike: after each write, every
 * request for the first page misses the first-page cache at once, and each ran the same query
 * (about five queries per write in `npm run bench:load`).
 *
 * A read joins only a query that has not started yet, so it still sees every write answered
 * before it began, as a query of its own would: the coherence promise holds on every engine. A
 * query starts one microtask after the first read asked for it, which lets the reads resolved
 * in the same batch (they run in step through the same calls) join it; the entry is gone before
 * the query's SQL is sent. Nothing is kept once the query answers.
 */
export class SharedReads {
  private readonly waiting = new Map<string, Promise<unknown>>()

  share<T>(key: string, read: () => Promise<T>): Promise<T> {
    const waiting = this.waiting.get(key) as Promise<T> | undefined
    if (waiting !== undefined) return waiting
    const shared = Promise.resolve().then(() => {
      // From here on a new read of `key` starts a query of its own.
      this.waiting.delete(key)
      return read()
    })
    this.waiting.set(key, shared)
    return shared
  }
}
