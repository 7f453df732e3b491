import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { RateLimitCounter } from '@/application/ports/rate-limit-counter.port'
import { admitted } from '@/server/plugins/admission'

/** A budget of requests per client, counted where every server counts (the database). */
export interface RequestBudget {
  /** Part of every key, so that two budgets never draw on each other's units. */
  readonly group: string
  /** What the logs call one request of the budget, e.g. `write`. */
  readonly label: string
  /** Units per window per client, at least 1. */
  readonly max: number
  readonly windowMs: number
  /** Told of each request refused because the budget is spent (the metrics count them). */
  readonly onRefused?: () => void
}

/** The two hooks of a budget, for the routes that draw on it. */
export interface BudgetHooks {
  /** onRequest: takes a unit, or answers 429 once the budget is spent. */
  readonly reserve: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
  /** onSend: gives the unit back, before the answer leaves, when the answer does not spend it. */
  readonly settle: (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
  ) => Promise<unknown>
}

interface HeldUnit {
  readonly key: string
  readonly windowEnd: number
  readonly remaining: number
}

/**
 * Hooks that make requests draw on `budget`, each for the client `app.clientKeyOf` names (its
 * pseudonym, never its address), counted by `counter`. A request reserves its unit as it
 * arrives, in one statement that takes it only while the client's window holds fewer than `max`
 * (the counter's `reserve`), so requests sent at once can never hold more than the budget, on
 * one server or many. Only an accepted answer (2xx) spends: once any other is known, and before
 * it leaves, the request gives its unit back to the window it came from; so a client that waits
 * for each answer sees the budget as it was before its refused request. The request's admission
 * (admission.ts), which ran meanwhile, is waited for before either way out: its refusal comes
 * first, and the unit goes back with it.
 *
 * The budget is against abuse, not a guard of the database: when the counter fails (the
 * database is down or busy) the request goes through uncounted (fail open) and is logged, and
 * never answers a 5xx for it.
 */
export function budgetHooks(
  app: FastifyInstance,
  budget: RequestBudget,
  counter: RateLimitCounter,
): BudgetHooks {
  const { max, windowMs } = budget
  const held = new WeakMap<FastifyRequest, HeldUnit>()

  async function reserve(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = `${app.clientKeyOf(request)}:${budget.group}`
    let reservation
    try {
      reservation = await counter.reserve(key, windowMs, max)
    } catch (error) {
      request.log.warn({ err: error }, `${budget.label} not counted against the rate limit`)
      return admitted(request)
    }
    const remaining = Math.max(0, max - reservation.count)
    const resetSeconds = Math.max(1, Math.ceil(reservation.resetInMs / 1000))
    reply.header('x-ratelimit-limit', max)
    reply.header('x-ratelimit-remaining', remaining)
    reply.header('x-ratelimit-reset', resetSeconds)
    if (reservation.granted) {
      held.set(request, { key, windowEnd: reservation.windowEnd, remaining })
      // A refused admission answers no 2xx, with which settle gives the unit back.
      await admitted(request)
      return
    }
    await admitted(request)
    reply.header('retry-after', resetSeconds)
    budget.onRefused?.()
    // Answered by the error handler in scope: a problem, or the outbox's text.
    throw Object.assign(new Error(`The ${budget.label} budget is spent`), { statusCode: 429 })
  }

  async function settle(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
  ): Promise<unknown> {
    const unit = held.get(request)
    if (unit === undefined) return payload
    held.delete(request)
    if (reply.statusCode >= 200 && reply.statusCode < 300) return payload
    try {
      await counter.giveBack(unit.key, unit.windowEnd)
      reply.header('x-ratelimit-remaining', Math.min(max, unit.remaining + 1))
    } catch (error) {
      request.log.warn({ err: error }, `${budget.label}'s unit not given back to the rate limit`)
    }
    return payload
  }

  return { reserve, settle }
}
