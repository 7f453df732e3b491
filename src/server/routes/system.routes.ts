import type { FastifyPluginAsync } from 'fastify'
import { RuntimeConfigSchema } from '@/contract/runtime-config.wire-schemas'
import { problemResponse } from '@/contract/problem.schema'
import { answersWithin } from '@/server/services/health'
import { refuse } from '@/server/services/problem'
import { runtimeConfigOf } from '@/server/services/server-config'

/** How long the health check may take before it counts as down. */
const HEALTH_TIMEOUT_MS = 2000

/** GET /api/config (the SPA's run-time settings) and GET /api/health. */
export const systemRoutes: FastifyPluginAsync = async (app) => {
  const { health, appVersion: version } = app
  const runtimeConfig = runtimeConfigOf(app.config)

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
      const answer = await answersWithin(health, HEALTH_TIMEOUT_MS)
      if (answer === false) refuse(503, 'The database does not answer.')
      return { status: 'ok' as const, version, ...(answer === true ? {} : answer) }
    },
  )
}
