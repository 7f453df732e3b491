import type { FastifyContextConfig, FastifyInstance } from 'fastify'
import type { RateLimitCounter } from '@/application/ports/rate-limit-counter.port'
import { budgetHooks } from '@/server/plugins/request-budget'

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

/**
 * The write routes' budgets, by the route config that opts in to each, counted in the database
 * that every server shares (request-budget.ts):
 *   - writeLimit: accepted writes per minute per client, one budget for every write route;
 *   - createLimit: new posts an hour per client, against spam, beside it (a create spends a unit
 *     of each).
 * Only what the server accepted (2xx) spends: a write refused as bad (4xx), missing (404) or
 * failed (5xx) gives its unit back. Each write reserves its unit as it arrives, so writes sent at
 * once never get more than the budget through; the key is the client's and the group.
 */
const BUDGETS = {
  writeLimit: { group: WRITE_GROUP, label: 'write', windowMs: 60_000, metric: 'write' },
  createLimit: { group: CREATE_GROUP, label: 'new post', windowMs: 3_600_000, metric: 'create' },
} as const

/** Adds the budget `option` names, `max` a window, to every route whose config names it. */
export function registerWriteBudget(
  app: FastifyInstance,
  option: keyof typeof BUDGETS,
  max: number,
  counter: RateLimitCounter,
): void {
  const { metric, ...budget } = BUDGETS[option]
  const onRefused = () => app.metrics.budgetRefused(metric)
  const { reserve, settle } = budgetHooks(app, { ...budget, max, onRefused }, counter)
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
