import type { FastifyContextConfig, FastifyInstance } from 'fastify'
import type { RateLimitCounter } from '@/application/ports/rate-limit-counter.port'
import { budgetHooks } from '@/server/plugins/request-budget'

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
 * shares, one budget for every write route (request-budget.ts). Only writes the server accepted
 * (2xx) spend: a write refused as bad (4xx), missing (404) or failed (5xx) gives its unit back.
 * Each write reserves its unit as it arrives, so writes sent at once never get more than `max`
 * through; the key is the client's address and the group, as @fastify/rate-limit named it.
 */
export function registerWriteLimit(
  app: FastifyInstance,
  max: number,
  counter: RateLimitCounter,
): void {
  const { reserve, settle } = budgetHooks({
    group: WRITE_GROUP,
    label: 'write',
    max,
    windowMs: WINDOW_MS,
    counter,
    spends: (reply) => reply.statusCode >= 200 && reply.statusCode < 300,
    onRefused: () => app.metrics.budgetRefused('write'),
  })
  app.addHook('onRoute', (route) => {
    if (route.config?.writeLimit !== WRITE_GROUP) return
    route.onRequest = [...hooksOf(route.onRequest), reserve]
    route.onSend = [...hooksOf(route.onSend), settle]
  })
}

function hooksOf<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  if (hooks === undefined) return []
  return Array.isArray(hooks) ? hooks : [hooks]
}
