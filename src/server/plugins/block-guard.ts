import type { FastifyInstance, FastifyRequest } from 'fastify'
import { forbidden } from '@/domain/domain-error'
import { hooksOf } from '@/server/plugins/write-limit'
import { admitted } from '@/server/plugins/admission'
import { attempt } from '@/domain/result'
import { problemOf, ProblemError } from '@/server/services/problem'

/**
 * Refuses the writes of a client the operator blocked (`npm run news -- block`): every route
 * that draws on the write budget (WRITE_LIMITED: the news writes and the outbox) answers 403,
 * a `/problems/blocked` problem with the block's reason and end. Reads still work. The blocks
 * are read from the database on each write, so a block made on any server (or by the CLI) holds
 * on every server from its commit on.
 *
 * The lookup starts as the write arrives and is the request's admission (admission.ts): the
 * write budget reserves its unit meanwhile, in a statement of its own, and spends nothing for a
 * blocked client (its unit goes back with the 403, which comes before any 429). A write thus
 * waits for one round trip to the database before its own, not two. Without a budget, the
 * refusal comes before the body is read.
 *
 * Registered before the routes, and before the write limit, whose hooks come after this one.
 */
export function registerBlockGuard(app: FastifyInstance): void {
  async function blockRefusal(request: FastifyRequest): Promise<ProblemError | undefined> {
    // When the database cannot say, the write could not be stored either: 503, as for it.
    const found = await attempt(() =>
      app.blockOn(app.editorOf(request), request.ip as string | undefined),
    )
    if (!found.ok) return new ProblemError(problemOf(found.error))
    const block = found.value
    if (block === undefined) return undefined
    request.log.info({ block: block.id }, 'write from a blocked client refused')
    return new ProblemError(
      problemOf(forbidden({ reason: 'blocked', note: block.reason, until: block.expiresAt })),
    )
  }
  async function lookUpBlock(request: FastifyRequest): Promise<void> {
    request.admission = blockRefusal(request)
  }
  async function refuseBlocked(request: FastifyRequest, _reply: unknown, payload: unknown) {
    await admitted(request)
    return payload
  }
  app.decorateRequest('admission', undefined)
  app.addHook('onRoute', (route) => {
    if (route.config?.writeLimit === undefined) return
    route.onRequest = [...hooksOf(route.onRequest), lookUpBlock]
    route.preParsing = [...hooksOf(route.preParsing), refuseBlocked]
  })
}
