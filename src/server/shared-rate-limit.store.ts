import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { RateLimitCounter, RateLimitHit } from '@/domain/ports/rate-limit-counter.port'

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1]

/**
 * A `@fastify/rate-limit` store over a RateLimitCounter, so that the budget lives where every
 * server counts (the database), not in one process. The plugin constructs the store itself,
 * hence a class made per counter. A failed count is handed to `onCountFailed` and reported to
 * the plugin as an error; the app registers the plugin with `skipOnError`, so the request goes
 * through (fail open).
 */
export function sharedRateLimitStore(
  counter: RateLimitCounter,
  onCountFailed: (error: unknown) => void,
): FastifyRateLimitStoreCtor {
  const answer = (count: Promise<RateLimitHit>, callback: IncrCallback): void => {
    count.then(
      (hit) => callback(null, { current: hit.count, ttl: hit.resetInMs }),
      (error: unknown) => {
        onCountFailed(error)
        callback(error instanceof Error ? error : new Error('the rate limit count failed'))
      },
    )
  }

  class SharedRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      answer(counter.hit(key, timeWindow), callback)
    }

    /** What `createRateLimit()(request, { increment: false })` asks: the count, not counted. */
    read(key: string, callback: IncrCallback, timeWindow: number): void {
      answer(counter.peek(key, timeWindow), callback)
    }

    /**
     * The store a limiter made by `createRateLimit()` counts in: this one, with the same keys.
     * The write limiter's key carries its group (write-limit.ts), so every write route draws on
     * one budget; no route has a `config.rateLimit` of its own.
     */
    child(): FastifyRateLimitStore {
      return this
    }
  }
  return SharedRateLimitStore
}
