import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import type { RateLimitCounter, RateLimitHit } from '@/domain/ports/rate-limit-counter.port'
import { problem, sendProblem } from '@/server/problem'

/**
 * The group a client's searches count in, beside the writes' (write-limit.ts): the API's
 * `GET /api/news?q=` and the `/search` page draw on one budget.
 */
export const SEARCH_GROUP = 'searches'

const WINDOW_MS = 60_000

/** Whether a search may run now, or the seconds until the client's budget starts again. */
export type SearchAllowance =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

/** Spends one search of the client's budget, if any is left. */
export type SearchBudget = (request: FastifyRequest) => Promise<SearchAllowance>

const ALLOWED: SearchAllowance = { allowed: true }

/** The budget when SEARCH_RATE_LIMIT is 0: every search may run. */
export const UNLIMITED_SEARCHES: SearchBudget = async () => ALLOWED

/**
 * `max` searches per minute per client address, counted by `counter` in the database every
 * server shares, as the write budget is: a client cannot search N times as often by reaching N
 * servers. A search on SQLite holds the server's one thread while it reads the index, so without
 * a budget a few clients searching in a loop made every visitor's read wait behind them.
 *
 * Every search counts as it arrives, before it runs, whatever it answers: its cost is spent by
 * then. A peek (a primary-key read) answers a client whose budget is spent, so a flood of them
 * writes nothing; otherwise the count (one atomic upsert) decides, so searches sent at once never
 * run past the budget. When the database cannot count, the search runs (fail open) and a warning
 * is logged: the budget guards against abuse, and the search answers 503 by itself when the
 * database is truly gone.
 */
export function searchBudget(
  max: number,
  counter: RateLimitCounter,
  log: FastifyBaseLogger,
): SearchBudget {
  return async (request) => {
    const key = normalizeIP(request.ip) + SEARCH_GROUP
    try {
      const spent = await counter.peek(key, WINDOW_MS)
      if (spent.count >= max) return refusal(spent)
      const hit = await counter.hit(key, WINDOW_MS)
      return hit.count <= max ? ALLOWED : refusal(hit)
    } catch (error) {
      log.warn({ err: error }, 'search not counted against the search budget')
      return ALLOWED
    }
  }
}

function refusal(hit: RateLimitHit): SearchAllowance {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(hit.resetInMs / 1000)) }
}

/** The API's answer to a search past the budget: 429, and when to try again. */
export function sendSearchesSpent(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  reply.header('retry-after', retryAfterSeconds)
  return sendProblem(
    reply,
    problem(429, `Too many searches from your address. Retry in ${retryAfterSeconds} s.`),
  )
}
