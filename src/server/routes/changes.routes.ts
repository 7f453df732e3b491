import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { LIST_CHANGES_SCHEMA } from '@/contract/changes.routes.schema'
import { nextLink } from '@/server/services/next-link'
import { valueOf } from '@/server/services/problem'

const CHANGES_PATH = '/api/changes'

/** The recent changes, the patrol's read; it reads the use cases from the decorated instance. */
export const changesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { useCases } = app

  app.get(CHANGES_PATH, { schema: LIST_CHANGES_SCHEMA }, async (request, reply) => {
    const { editor, limit = DEFAULT_PAGE_SIZE, cursor } = request.query
    const { items, next } = valueOf(
      await useCases.listChanges.execute({ editor, limit, cursor }),
      400,
    )
    // As every paged list's Link, with the editor kept in front.
    const kept = editor === undefined ? '' : `editor=${encodeURIComponent(editor)}&`
    const link = nextLink(CHANGES_PATH, limit, next, kept)
    if (link !== undefined) reply.header('link', link)
    return items
  })
}
