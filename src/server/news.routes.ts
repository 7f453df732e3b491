import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from 'fastify'
import type { UseCases } from '@/application/use-cases'
import { NEWS_FIELDS, type NewsChanges, type NewsDraft } from '@/domain/news-item.entity'
import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { checkFields } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { BODY_LIMIT_BYTES } from '@/server/error-handler'
import type { CachedPage, Encoding, FirstPageCache } from '@/server/first-page.cache'
import {
  CREATE_NEWS_SCHEMA,
  DELETE_NEWS_SCHEMA,
  EDIT_NEWS_SCHEMA,
  GET_NEWS_SCHEMA,
  LIST_NEWS_SCHEMA,
} from '@/server/news.schema'
import { DETAILS, problem, problemOf, sendProblem } from '@/server/problem'

export interface NewsRoutesOptions {
  readonly useCases: UseCases
  readonly cache: FirstPageCache
  /** Runs first on every write, e.g. the rate limit. */
  readonly writeGuards: readonly onRequestAsyncHookHandler[]
}

interface ListQuery {
  readonly limit: number
  readonly cursor?: string
}

interface IdParams {
  readonly id: string
}

const JSON_TYPE = 'application/json; charset=utf-8'
// Below this size compression costs more than it saves (as in @fastify/compress).
const COMPRESS_THRESHOLD = 1024

export const newsRoutes: FastifyPluginAsync<NewsRoutesOptions> = async (app, options) => {
  const { useCases, cache } = options
  const writeHooks = [...options.writeGuards, requireJson]

  app.get<{ Querystring: ListQuery }>(
    '/api/news',
    { schema: LIST_NEWS_SCHEMA },
    async (request, reply) => {
      const { limit, cursor } = request.query
      const firstPage = cursor === undefined && limit === DEFAULT_PAGE_SIZE
      if (firstPage) {
        const cached = cache.get()
        if (cached !== undefined) return sendPage(request, reply, cache, cached)
      }
      const generation = cache.begin()
      const result = await useCases.listNews.execute({ limit, cursor })
      if (!result.ok) return sendProblem(reply, problemOf(result.error, 400))
      const { items, next } = result.value
      const link =
        next === undefined
          ? undefined
          : `</api/news?limit=${limit}&cursor=${encodeURIComponent(next)}>; rel="next"`
      if (!firstPage) {
        if (link !== undefined) reply.header('link', link)
        return items
      }
      const page = { body: reply.serialize(items) as string, link }
      cache.store(generation, page)
      return sendPage(request, reply, cache, page)
    },
  )

  app.get<{ Params: IdParams }>(
    '/api/news/:id',
    { schema: GET_NEWS_SCHEMA },
    async (request, reply) => {
      const result = await useCases.getNewsItem.execute(request.params.id)
      return result.ok ? result.value : sendProblem(reply, problemOf(result.error))
    },
  )

  app.post(
    '/api/news',
    {
      schema: CREATE_NEWS_SCHEMA,
      bodyLimit: BODY_LIMIT_BYTES,
      onRequest: writeHooks,
      preValidation: narrowDraft,
      attachValidation: true,
    },
    async (request, reply) => {
      const draft = request.body as NewsDraft
      if (request.validationError !== undefined) return sendInvalid(reply, draft)
      const result = await useCases.createNews.execute(draft)
      cache.clear()
      if (!result.ok) return sendProblem(reply, problemOf(result.error))
      return reply
        .code(201)
        .header('location', `/api/news/${encodeURIComponent(result.value._id)}`)
        .send(result.value)
    },
  )

  app.patch<{ Params: IdParams }>(
    '/api/news/:id',
    {
      schema: EDIT_NEWS_SCHEMA,
      bodyLimit: BODY_LIMIT_BYTES,
      onRequest: writeHooks,
      preValidation: narrowDraft,
      attachValidation: true,
    },
    async (request, reply) => {
      const changes = request.body as NewsChanges
      if (Object.keys(changes).length === 0) {
        return sendProblem(reply, problem(422, 'Send any of title, body and author to change.'))
      }
      if (request.validationError !== undefined) return sendInvalid(reply, changes)
      const result = await useCases.editNews.execute({ id: request.params.id, changes })
      cache.clear()
      return result.ok ? result.value : sendProblem(reply, problemOf(result.error))
    },
  )

  app.delete<{ Params: IdParams }>(
    '/api/news/:id',
    { schema: DELETE_NEWS_SCHEMA, onRequest: [...options.writeGuards] },
    async (request, reply) => {
      const result = await useCases.deleteNews.execute(request.params.id)
      cache.clear()
      return result.ok ? reply.code(204).send() : sendProblem(reply, problemOf(result.error))
    },
  )
}

/** 415 unless the body is declared JSON, before Fastify would try another parser. */
async function requireJson(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const type = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase()
  // Returning the reply ends the request here.
  if (type !== 'application/json') {
    return sendProblem(reply, problem(415, 'Send the body as application/json.'))
  }
  return undefined
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
function sendInvalid(reply: FastifyReply, input: NewsChanges): FastifyReply {
  const given =
    reply.request.method === 'POST' ? NEWS_FIELDS : NEWS_FIELDS.filter((f) => f in input)
  return sendProblem(
    reply,
    problem(422, DETAILS.invalidPost, checkFields(NEWS_RULES, input, given)),
  )
}

/** Sends a serialised first page, compressed from the cache when the page is the cached one. */
function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: FirstPageCache,
  page: CachedPage,
): FastifyReply {
  if (page.link !== undefined) reply.header('link', page.link)
  reply.header('content-type', JSON_TYPE).header('vary', 'Accept-Encoding')
  const encoding =
    page.body.length >= COMPRESS_THRESHOLD && cache.get() === page
      ? preferredEncoding(request.headers['accept-encoding'])
      : undefined
  // Otherwise @fastify/compress negotiates and compresses as for any answer.
  if (encoding === undefined) return reply.send(page.body)
  const bytes = cache.encoded(encoding)
  return reply.header('content-encoding', encoding).send(bytes)
}

/** br over gzip, honouring q=0; anything else goes uncompressed. */
export function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined) return undefined
  const accepted = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    accepted.set(name.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0)
  }
  const wildcard = accepted.get('*') ?? 0
  for (const encoding of ['br', 'gzip'] as const) {
    if ((accepted.get(encoding) ?? wildcard) > 0) return encoding
  }
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
