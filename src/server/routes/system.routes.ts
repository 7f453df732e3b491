import type { FastifyPluginAsync } from 'fastify'
import { RuntimeConfigSchema } from '@/contract/runtime-config.wire-schemas'
import type { Engine } from '@/application/database-target'
import type { RuntimeConfig } from '@/application/runtime-config'
import { problem, sendProblem } from '@/server/services/problem'
import { problemResponse } from '@/contract/problem.schema'

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

export interface SystemRoutesOptions {
  readonly runtimeConfig: RuntimeConfig
  readonly health: HealthCheck
  /** The server's version (package.json's), told by GET /api/health. */
  readonly version: string
  /** How long the health check may take before it counts as down. */
  readonly healthTimeoutMs?: number
}

/** GET /api/config (the SPA's run-time settings) and GET /api/health. */
export const systemRoutes: FastifyPluginAsync<SystemRoutesOptions> = async (app, options) => {
  const { runtimeConfig, health, version, healthTimeoutMs = 2000 } = options

  app.get(
    '/api/config',
    {
      schema: {
        tags: ['system'],
        summary: 'The single-page app’s run-time settings',
        response: { 200: { description: 'The settings.', ...RuntimeConfigSchema } },
      },
    },
    async () => runtimeConfig,
  )

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Whether the server and its database answer',
        response: {
          200: {
            description: 'The database answers: which it is, and where its schema stands.',
            type: 'object',
            required: ['status', 'version'],
            properties: {
              status: { type: 'string', enum: ['ok'] },
              version: { type: 'string', description: 'The server’s version.' },
              engine: { type: 'string', enum: ['sqlite', 'postgres'] },
              schemaVersion: {
                type: ['string', 'null'],
                description: 'The latest migration applied, by name.',
              },
              migrationsCurrent: {
                type: 'boolean',
                description: 'Whether every migration this server knows is applied.',
              },
            },
          },
          503: problemResponse('The database does not answer.'),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      const answer = await answersWithin(health, healthTimeoutMs)
      if (answer === false) return sendProblem(reply, problem(503, 'The database does not answer.'))
      return { status: 'ok' as const, version, ...(answer === true ? {} : answer) }
    },
  )
}

async function answersWithin(check: HealthCheck, ms: number): Promise<boolean | DatabaseHealth> {
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
