import type { FastifyContextConfig, FastifyInstance, FastifyReply } from 'fastify'
import type { RateLimitCounter } from '@/application/ports/rate-limit-counter.port'
import { budgetHooks, type RequestBudget } from '@/server/plugins/request-budget'

/** The group every write route counts in, so that a client has one budget for all its writes. */
export const WRITE_GROUP = 'writes'
/** The group new posts count in besides, against spam: CREATE_RATE_LIMIT an hour. */
export const CREATE_GROUP = 'creates'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The budget a write route draws on (write-limit.ts), and the operator's blocks hold for it
     * (block-guard.ts); unset for reads.
     */
    readonly writeLimit?: typeof WRITE_GROUP
    /** Set on the route that makes new posts, which draw on the create budget as well. */
    readonly createLimit?: typeof CREATE_GROUP
  }
}

/** The route config of a write: counted in the write group (ignored while the limit is off). */
export const WRITE_LIMITED = { writeLimit: WRITE_GROUP } as const satisfies FastifyContextConfig

/** The route config of the create: a write that draws on the create budget too. */
export const CREATE_LIMITED = {
  ...WRITE_LIMITED,
  createLimit: CREATE_GROUP,
} as const satisfies FastifyContextConfig

const WINDOW_MS = 60_000
const CREATE_WINDOW_MS = 60 * 60_000

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
  registerBudget(app, 'writeLimit', {
    group: WRITE_GROUP,
    label: 'write',
    max,
    windowMs: WINDOW_MS,
    counter,
    keyOf: (request) => app.clientKeyOf(request),
    spends: accepted,
    onRefused: () => app.metrics.budgetRefused('write'),
  })
}

/**
 * Registers the spam budget of the route that opts in with CREATE_LIMITED: `max` new posts an
 * hour per client, counted in the shared database as the write limit is, beside it (a create
 * spends a unit of each). A create refused (4xx, 5xx) gives its unit back.
 */
export function registerCreateLimit(
  app: FastifyInstance,
  max: number,
  counter: RateLimitCounter,
): void {
  registerBudget(app, 'createLimit', {
    group: CREATE_GROUP,
    label: 'new post',
    max,
    windowMs: CREATE_WINDOW_MS,
    counter,
    keyOf: (request) => app.clientKeyOf(request),
    spends: accepted,
    onRefused: () => app.metrics.budgetRefused('create'),
  })
}

function accepted(reply: FastifyReply): boolean {
  return reply.statusCode >= 200 && reply.statusCode < 300
}

/** Adds the budget's hooks to every route whose config names it under `option`. */
function registerBudget(
  app: FastifyInstance,
  option: 'writeLimit' | 'createLimit',
  budget: RequestBudget,
): void {
  const { reserve, settle } = budgetHooks(budget)
  app.addHook('onRoute', (route) => {
    if (route.config?.[option] === undefined) return
    route.onRequest = [...hooksOf(route.onRequest), reserve]
    route.onSend = [...hooksOf(route.onSend), settle]
  })
}

export function hooksOf<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  if (hooks === undefined) return []
  return Array.isArray(hooks) ? hooks : [hooks]
}
