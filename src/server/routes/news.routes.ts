import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { NEWS_FIELDS, type NewsChanges } from '@/domain/news-item.entity'
import { DEFAULT_HISTORY_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { checkFields } from '@/domain/rules/field-rule'
import { isIdempotencyKey } from '@/domain/rules/news-history.rules'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { wellFormed } from '@/domain/rules/normalise'
import { BODY_LIMIT_BYTES } from '@/server/plugins/error-handler'
import {
  encodingFor,
  serialisedPage,
  type FirstPageCache,
  type SerialisedPage,
} from '@/server/services/first-page.cache'
import { cacheableRead, sendNotModified } from '@/server/plugins/http-caching'
import {
  CREATE_NEWS_SCHEMA,
  DELETE_NEWS_SCHEMA,
  EDIT_NEWS_SCHEMA,
  GET_NEWS_SCHEMA,
  LIST_NEWS_SCHEMA,
} from '@/contract/news.routes.schema'
import {
  LIST_REVISIONS_SCHEMA,
  LIST_TRASH_SCHEMA,
  RESTORE_NEWS_SCHEMA,
  RESTORE_REVISION_SCHEMA,
} from '@/contract/history.routes.schema'
import { etagOf, matchesIfNoneMatch, writeConditionOf } from '@/server/services/preconditions'
import { DETAILS, problem, ProblemError, refuse, valueOf } from '@/server/services/problem'
import { refuseSearch } from '@/server/plugins/search-limit'
import { CREATE_LIMITED, WRITE_LIMITED } from '@/server/plugins/write-limit'
import { nextLink } from '@/server/services/next-link'

const JSON_TYPE = 'application/json; charset=utf-8'
// Below this size compression costs more than it saves (as in @fastify/compress).
const COMPRESS_THRESHOLD = 1024
// Revision numbers as a URL writes them: no sign, no leading zero, no fraction.
const REVISION_NUMBER = /^[1-9]\d{0,15}$/

/** The news API; reads the use cases and the first-page cache from the decorated instance. */
export const newsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { useCases, firstPage: cache } = app

  // No write route touches the cache, by design: the store raises the change signal in each
  // write's own transaction, on whichever server (or CLI) made it, and each read checks it.
  // Every write counts against the client's one write budget (write-limit.ts), and the
  // operator's blocks hold for it (block-guard.ts).
  const write = { config: WRITE_LIMITED }
  const jsonWrite = { ...write, onRequest: requireJson }

  app.get('/api/news', { schema: LIST_NEWS_SCHEMA }, async (request, reply) => {
    const { q, limit = DEFAULT_PAGE_SIZE, cursor } = request.query
    if (q !== undefined) {
      const allowance = await app.searchBudget(request)
      if (!allowance.allowed) refuseSearch(allowance.retryAfterSeconds)
      // A search is never cached here: its pages are as many as its queries.
      const found = valueOf(await useCases.searchNews.execute({ q, limit, cursor }), 400)
      const search = `q=${encodeURIComponent(wellFormed(q))}&`
      const link = nextLink('/api/news', limit, found.next, search)
      const body = reply.serialize(found.items) as string
      return sendPage(request, reply, cache, serialisedPage(body, link))
    }
    const firstPage = cursor === undefined && limit === DEFAULT_PAGE_SIZE
    // The version is read before the page, so the page is at least as new as it; if the signal
    // cannot answer, the page is read (and answered) uncached, never served from memory.
    const version = firstPage ? await cache.version() : undefined
    if (version !== undefined) {
      const cached = cache.get(version)
      if (cached !== undefined) return sendPage(request, reply, cache, cached)
    }
    const { items, next } = valueOf(await useCases.listNews.execute({ limit, cursor }), 400)
    // Every page is serialised here, so that its ETag is a hash of the bytes it answers.
    const body = reply.serialize(items) as string
    const page = serialisedPage(body, nextLink('/api/news', limit, next))
    if (version !== undefined) cache.store(version, page)
    return sendPage(request, reply, cache, page)
  })

  app.get('/api/news/:id', { schema: GET_NEWS_SCHEMA }, async (request, reply) => {
    const item = valueOf(await useCases.getNewsItem.execute(request.params.id))
    const etag = etagOf(item)
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
      return sendNotModified(reply, etag)
    }
    return cacheableRead(reply, etag).send(item)
  })

  app.post(
    '/api/news',
    {
      schema: CREATE_NEWS_SCHEMA,
      bodyLimit: BODY_LIMIT_BYTES,
      ...jsonWrite,
      // A new post draws on the spam budget as well (write-limit.ts).
      config: CREATE_LIMITED,
      preValidation: narrowDraft,
      attachValidation: true,
    },
    async (request, reply) => {
      const draft = request.body
      const idempotencyKey = request.headers['idempotency-key']
      if (idempotencyKey !== undefined) {
        if (typeof idempotencyKey !== 'string' || !isIdempotencyKey(idempotencyKey)) {
          refuse(400, DETAILS.badIdempotencyKey)
        }
      }
      if (request.validationError !== undefined) refuseInvalid(request.method, draft)
      const created = valueOf(
        await useCases.createNews.execute(draft, { idempotencyKey, editor: app.editorOf(request) }),
      )
      const location = `/api/news/${encodeURIComponent(created._id)}`
      return sendItem(reply.code(201).header('location', location), created)
    },
  )

  app.patch(
    '/api/news/:id',
    {
      schema: EDIT_NEWS_SCHEMA,
      bodyLimit: BODY_LIMIT_BYTES,
      ...jsonWrite,
      preValidation: narrowDraft,
      attachValidation: true,
    },
    async (request, reply) => {
      const changes = request.body
      if (Object.keys(changes).length === 0) {
        refuse(422, 'Send any of title, body and author to change.')
      }
      if (request.validationError !== undefined) refuseInvalid(request.method, changes)
      const result = await useCases.editNews.execute({
        id: request.params.id,
        changes,
        condition: writeConditionOf(request.headers['if-match']),
        editor: app.editorOf(request),
      })
      return sendItem(reply, valueOf(result))
    },
  )

  app.delete('/api/news/:id', { schema: DELETE_NEWS_SCHEMA, ...write }, async (request, reply) => {
    const result = await useCases.deleteNews.execute(
      request.params.id,
      writeConditionOf(request.headers['if-match']),
      app.editorOf(request),
    )
    valueOf(result)
    return reply.code(204).send(null)
  })

  app.get('/api/news/:id/revisions', { schema: LIST_REVISIONS_SCHEMA }, async (request, reply) => {
    const { id } = request.params
    const { limit = DEFAULT_HISTORY_PAGE_SIZE, cursor } = request.query
    const { items, next } = valueOf(
      await useCases.listRevisions.execute(id, { limit, cursor }),
      400,
    )
    const link = nextLink(`/api/news/${encodeURIComponent(id)}/revisions`, limit, next)
    if (link !== undefined) reply.header('link', link)
    return items
  })

  app.get('/api/trash', { schema: LIST_TRASH_SCHEMA }, async (request, reply) => {
    const { limit = DEFAULT_PAGE_SIZE, cursor } = request.query
    const { items, next } = valueOf(await useCases.listTrash.execute({ limit, cursor }), 400)
    const link = nextLink('/api/trash', limit, next)
    if (link !== undefined) reply.header('link', link)
    return items
  })

  // The restores act on the URL alone: any body, of any type or none, is read and ignored,
  // so that a bare `curl -X POST` or a client that always sends JSON headers both work.
  await app.register(async (scope) => {
    const restores = scope.withTypeProvider<TypeBoxTypeProvider>()
    restores.removeAllContentTypeParsers()
    restores.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) =>
      done(null, undefined),
    )

    restores.post(
      '/api/news/:id/restore',
      { schema: RESTORE_NEWS_SCHEMA, bodyLimit: BODY_LIMIT_BYTES, ...write },
      async (request, reply) => {
        return sendItem(
          reply,
          valueOf(await useCases.restoreNews.execute(request.params.id, app.editorOf(request))),
        )
      },
    )

    restores.post(
      '/api/news/:id/revisions/:revision/restore',
      { schema: RESTORE_REVISION_SCHEMA, bodyLimit: BODY_LIMIT_BYTES, ...write },
      async (request, reply) => {
        const { id, revision } = request.params
        if (!REVISION_NUMBER.test(revision)) refuse(404, DETAILS.noRevision)
        const result = await useCases.restoreRevision.execute({
          id,
          revision: Number(revision),
          editor: app.editorOf(request),
          condition: writeConditionOf(request.headers['if-match']),
        })
        if (!result.ok && result.error.code === 'NotFound') refuse(404, DETAILS.noRevision)
        return sendItem(reply, valueOf(result))
      },
    )
  })
}

/** A post with its version as ETag. */
function sendItem(reply: FastifyReply, item: { readonly revision: number }): FastifyReply {
  return reply.header('etag', etagOf(item)).send(item)
}

/** 415 unless the body is declared JSON, before Fastify would try another parser. */
async function requireJson(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase()
  if (type !== 'application/json') refuse(415, 'Send the body as application/json.')
}

/**
 * Narrows the parsed body to the fields a client may set, before the schema runs: other
 * fields (such as _id and createdAt) go, and a value that is not text becomes '' so that
 * the domain answers it ('Sorry, title is required') instead of Ajv coercing 5 into '5'.
 */
async function narrowDraft(request: FastifyRequest): Promise<void> {
  const body: unknown = request.body
  const source = isRecord(body) ? body : {}
  const draft: Record<string, string> = {}
  for (const field of NEWS_FIELDS) {
    if (!(field in source)) continue
    const value = source[field]
    draft[field] = typeof value === 'string' ? value : ''
  }
  request.body = draft
}

/** The schemas check only shapes, which the draft is narrowed to; the domain words the errors. */
function refuseInvalid(method: string, input: NewsChanges): never {
  const given = method === 'POST' ? NEWS_FIELDS : NEWS_FIELDS.filter((f) => f in input)
  throw new ProblemError(problem(422, DETAILS.invalidPost, checkFields(NEWS_RULES, input, given)))
}

/**
 * Sends a list page with its ETag, or a 304 when the client holds it already; the cached first
 * page goes out precompressed.
 */
function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: FirstPageCache,
  page: SerialisedPage,
): FastifyReply {
  if (matchesIfNoneMatch(request.headers['if-none-match'], page.etag)) {
    return sendNotModified(reply, page.etag)
  }
  cacheableRead(reply, page.etag).header('content-type', JSON_TYPE)
  if (page.link !== undefined) reply.header('link', page.link)
  const encoding = page.body.length >= COMPRESS_THRESHOLD ? encodingFor(request) : undefined
  const bytes = encoding === undefined ? undefined : cache.encoded(page, encoding)
  // Otherwise (a small page, or one not cached) @fastify/compress negotiates and compresses as
  // for any answer.
  if (encoding === undefined || bytes === undefined) return reply.send(page.body)
  return reply.header('content-encoding', encoding).send(bytes)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
