import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import type {
  RateLimitCounter,
  RateLimitReservation,
} from '@/application/ports/rate-limit-counter.port'
import { refuse } from '@/server/services/problem'

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
 * then. It reserves its unit in one statement that takes it only while the window holds fewer
 * than `max` (the counter's `reserve`), so searches sent at once never run past the budget, and
 * a spent budget is answered without a write. When the database cannot count, the search runs (fail open) and a warning
 * is logged: the budget guards against abuse, and the search answers 503 by itself when the
 * database is truly gone.
 */
export function searchBudget(
  max: number,
  counter: RateLimitCounter,
  log: FastifyBaseLogger,
  keyOf: (request: FastifyRequest) => string,
  onRefused: () => void = () => undefined,
): SearchBudget {
  return async (request) => {
    const key = `${keyOf(request)}:${SEARCH_GROUP}`
    try {
      const reservation = await counter.reserve(key, WINDOW_MS, max)
      if (reservation.granted) return ALLOWED
      onRefused()
      return refusal(reservation)
    } catch (error) {
      log.warn({ err: error }, 'search not counted against the search budget')
      return ALLOWED
    }
  }
}

function refusal(reservation: RateLimitReservation): SearchAllowance {
  const retryAfterSeconds = Math.max(1, Math.ceil(reservation.resetInMs / 1000))
  return { allowed: false, retryAfterSeconds }
}

/** Ends a search past the budget with the API's answer: 429, and when to try again. */
export function refuseSearch(retryAfterSeconds: number): never {
  refuse(429, `Too many searches from your address. Retry in ${retryAfterSeconds} s.`, {
    'retry-after': String(retryAfterSeconds),
  })
}
