import { PROBLEM_TYPES } from '@/contract/problem-types'
import type { Refusal } from '@/domain/domain-error'

/**
 * The operator's refusal a 403 problem body names by its `type` (a block, with its reason and
 * end, or a protection), or undefined for any other body. Read by both browser adapters: the
 * API's and the outbox's, which the operator's blocks hold for as well.
 */
export function refusalOf(problem: unknown): Refusal | undefined {
  if (typeof problem !== 'object' || problem === null) return undefined
  const { type, reason, until } = problem as Record<string, unknown>
  if (type === PROBLEM_TYPES.protected) return { reason: 'protected' }
  if (type !== PROBLEM_TYPES.blocked) return undefined
  return {
    reason: 'blocked',
    note: typeof reason === 'string' ? reason : '',
    // As toISOString writes it, whatever form the server sent.
    until:
      typeof until === 'string' && !Number.isNaN(Date.parse(until))
        ? new Date(until).toISOString()
        : null,
  }
}
