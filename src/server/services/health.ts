import type { Engine } from '@/application/database-target'

/** What GET /api/health tells of the database, when it answers. */
export interface DatabaseHealth {
  readonly engine: Engine
  /** The latest migration applied, by name; null before any. */
  readonly schemaVersion: string | null
  /** Whether every migration this server knows is applied. */
  readonly migrationsCurrent: boolean
}

/**
 * Answers whether the database answers, and where its schema stands; false or a rejection means
 * it does not answer (true: it answers, with nothing more to tell).
 */
export type HealthCheck = () => Promise<boolean | DatabaseHealth>

/** The check's answer, or false when it rejects or takes longer than `ms`. */
export async function answersWithin(
  check: HealthCheck,
  ms: number,
): Promise<boolean | DatabaseHealth> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([check().catch(() => false), late])
  } finally {
    clearTimeout(timer)
  }
}
