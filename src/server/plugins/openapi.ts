import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'

export const OPENAPI_PATH = '/api/openapi.json'

/**
 * OpenAPI 3.1 built from the route schemas. Register before the routes: it collects them as
 * they are added.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    // OpenAPI 3.1 is JSON Schema: `const` (a post's `protected: true`) stays as it is.
    convertConstToEnum: false,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'NewsWire API',
        version: '1.0.0',
        description:
          'News posts, the SPA’s run-time settings, health, and the built-in EmailJS-compatible ' +
          'outbox. Errors are RFC 9457 application/problem+json. Every change to a post is ' +
          'recorded as a revision; deleted posts wait in the trash for TRASH_DAYS days. ' +
          'GET /api/events streams each change as Server-Sent Events. The operator may block a ' +
          'client’s writes or protect a post: such writes answer 403, typed /problems/blocked ' +
          'or /problems/protected.',
      },
      tags: [
        { name: 'news', description: 'News posts' },
        {
          name: 'history',
          description: 'Every post’s revisions, and the trash: nothing a visitor does is lost',
        },
        { name: 'live', description: 'The live stream of changes, from every server' },
        { name: 'system', description: 'Settings and health' },
        { name: 'outbox', description: 'The built-in outbox, when no EmailJS account is set' },
      ],
    },
  })

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger())
}
