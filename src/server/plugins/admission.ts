import type { FastifyRequest } from 'fastify'
import type { ProblemError } from '@/server/services/problem'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * A check that runs beside the write budget's reservation and must pass before the request
     * may spend (the operator's blocks, block-guard.ts): the refusal to answer, or undefined.
     * It never rejects, so that no refusal is left unhandled while the budget's statement runs.
     */
    admission?: Promise<ProblemError | undefined>
  }
}

/** Waits for the request's admission, and throws its refusal, if any. */
export async function admitted(request: FastifyRequest): Promise<void> {
  const refusal = await request.admission
  if (refusal !== undefined) throw refusal
}
