import rateLimit, { normalizeIP } from '@fastify/rate-limit'
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { RateLimitCounter } from '@/domain/ports/rate-limit-counter.port'
import { sharedRateLimitStore } from '@/server/shared-rate-limit.store'

/** The group every write route counts in, so that a client has one budget for all its writes. */
export const WRITE_GROUP = 'writes'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget a write route draws on (write-limit.ts); unset for reads. */
    readonly writeLimit?: typeof WRITE_GROUP
  }
}

/** The route config of a write: counted in the write group (ignored while the limit is off). */
export const WRITE_LIMITED = { writeLimit: WRITE_GROUP } as const satisfies FastifyContextConfig

const WINDOW_MS = 60_000

/**
 * Registers the write limit for the routes that opt in with WRITE_LIMITED: `max` accepted
 * writes per minute per client address, counted by `counter` in the database that every server
 * shares.
 *
 * Only writes the server accepted (2xx) count: a request refused as bad (4xx), missing (404) or
 * failed (5xx) uses no budget. So each write peeks at the budget as it arrives (429 once it is
 * spent) and is counted once its answer is a 2xx, before that answer leaves, so that a client
 * that waits for each answer is never a write over. Writes sent at once all peek before any is
 * counted, so a client can overshoot the budget by the writes it has in flight.
 */
export async function registerWriteLimit(
  app: FastifyInstance,
  max: number,
  counter: RateLimitCounter,
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    max,
    timeWindow: WINDOW_MS,
    // The limit is against abuse, not a guard of the database: when the peek or the count fails
    // (the database is down or busy), the write goes through (fail open) and succeeds, or
    // answers 503 Unavailable from its own storage call like any other; never a 5xx from the
    // limit.
    skipOnError: true,
    store: sharedRateLimitStore(counter, (error) =>
      app.log.warn({ err: error }, 'write not counted against the rate limit'),
    ),
  })
  // One limiter for every write route: its key is the client's address and the group, the key
  // @fastify/rate-limit gives a route of `groupId: 'writes'`, so that every route and every
  // server draw on one budget.
  const limit = app.createRateLimit({
    keyGenerator: (request) => normalizeIP(request.ip) + WRITE_GROUP,
  })

  async function peek(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const budget = await limit(request, { increment: false })
    if (budget.isAllowed) return
    reply.header('x-ratelimit-limit', budget.max)
    reply.header('x-ratelimit-remaining', budget.remaining)
    reply.header('x-ratelimit-reset', budget.ttlInSeconds)
    if (budget.remaining > 0) return
    reply.header('retry-after', budget.ttlInSeconds)
    // Answered by the error handler in scope: a problem, or the outbox's text.
    throw Object.assign(new Error('The write budget is spent'), { statusCode: 429 })
  }

  async function countIfAccepted(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
  ): Promise<unknown> {
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload
    const budget = await limit(request)
    if (!budget.isAllowed) {
      reply.header('x-ratelimit-remaining', budget.remaining)
      reply.header('x-ratelimit-reset', budget.ttlInSeconds)
    }
    return payload
  }

  app.addHook('onRoute', (route) => {
    if (route.config?.writeLimit !== WRITE_GROUP) return
    route.onRequest = [...hooksOf(route.onRequest), peek]
    route.onSend = [...hooksOf(route.onSend), countIfAccepted]
  })
}

function hooksOf<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  if (hooks === undefined) return []
  return Array.isArray(hooks) ? hooks : [hooks]
}
