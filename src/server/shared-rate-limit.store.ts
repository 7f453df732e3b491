import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit'
import type { RateLimitCounter } from '@/domain/ports/rate-limit-counter.port'

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
  class SharedRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      counter.hit(this.prefix + key, timeWindow).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.resetInMs }),
        (error: unknown) => {
          onCountFailed(error)
          callback(error instanceof Error ? error : new Error('the rate limit count failed'))
        },
      )
    }

    /** A route with a limit of its own counts apart from the shared one, as the Redis store does. */
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // At run time the plugin passes the route under `routeInfo`; its types name the route itself.
      const route: { method?: unknown; url?: unknown } =
        (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ??
        routeOptions
      return new SharedRateLimitStore(
        {},
        `${this.prefix}${String(route.method)}${String(route.url)}-`,
      )
    }
  }
  return SharedRateLimitStore
}
