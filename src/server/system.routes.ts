import type { FastifyPluginAsync } from 'fastify'
import { RuntimeConfigSchema } from '@/contract/runtime-config.wire-schemas'
import type { RuntimeConfig } from '@/application/runtime-config'
import { problem, sendProblem } from '@/server/problem'
import { problemResponse } from '@/contract/problem.schema'

/** Answers whether the database answers; false or a rejection means it does not. */
export type HealthCheck = () => Promise<boolean>

export interface SystemRoutesOptions {
  readonly runtimeConfig: RuntimeConfig
  readonly health: HealthCheck
  /** How long the health check may take before it counts as down. */
  readonly healthTimeoutMs?: number
}

/** GET /api/config (the SPA's run-time settings) and GET /api/health. */
export const systemRoutes: FastifyPluginAsync<SystemRoutesOptions> = async (app, options) => {
  const { runtimeConfig, health, healthTimeoutMs = 2000 } = options

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
            description: 'The database answers.',
            type: 'object',
            required: ['status'],
            properties: { status: { type: 'string', enum: ['ok'] } },
          },
          503: problemResponse('The database does not answer.'),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      if (await answersWithin(health, healthTimeoutMs)) return { status: 'ok' as const }
      return sendProblem(reply, problem(503, 'The database does not answer.'))
    },
  )
}

async function answersWithin(check: HealthCheck, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([check().catch(() => false), late])
  } finally {
    clearTimeout(timer)
  }
}
