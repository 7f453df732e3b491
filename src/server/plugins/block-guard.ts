import type { FastifyInstance, FastifyRequest } from 'fastify'
import { forbidden } from '@/domain/domain-error'
import { hooksOf } from '@/server/plugins/write-limit'
import { attempt } from '@/domain/result'
import { problemOf, ProblemError, valueOf } from '@/server/services/problem'

/**
 * Refuses the writes of a client the operator blocked (`npm run news -- block`): every route
 * that draws on the write budget (WRITE_LIMITED: the news writes and the outbox) answers 403,
 * a `/problems/blocked` problem with the block's reason and end. Reads still work. The blocks
 * are read from the database on each write, before the write budget is spent, so a block made
 * on any server (or by the CLI) holds on every server from its commit on.
 *
 * Registered before the routes, and before the write limit, whose hooks come after this one.
 */
export function registerBlockGuard(app: FastifyInstance): void {
  async function refuseBlocked(request: FastifyRequest): Promise<void> {
    // When the database cannot say, the write could not be stored either: 503, as for it.
    const block = valueOf(
      await attempt(() => app.blockOn(app.editorOf(request), request.ip as string | undefined)),
    )
    if (block === undefined) return
    request.log.info({ block: block.id }, 'write from a blocked client refused')
    throw new ProblemError(
      problemOf(forbidden({ reason: 'blocked', note: block.reason, until: block.expiresAt })),
    )
  }
  app.addHook('onRoute', (route) => {
    if (route.config?.writeLimit === undefined) return
    route.onRequest = [...hooksOf(route.onRequest), refuseBlocked]
  })
}
