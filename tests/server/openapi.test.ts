import {
  NewsItemSchema,
  NewsRevisionSchema,
  TrashedNewsItemSchema,
} from '@/contract/news.wire-schemas'
import { NewsChangeSchema, StreamPositionSchema } from '@/contract/news-change.wire-schemas'
import { RecentChangeSchema } from '@/contract/recent-change.wire-schemas'
import { fakeDistDir, useServer } from './server-fixture'

interface Operation {
  tags?: string[]
  responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>
  requestBody?: unknown
  parameters?: { in: string; name: string }[]
}

interface OpenApi {
  openapi: string
  paths: Record<string, Record<string, Operation>>
}

const statuses = (operation: Operation | undefined) =>
  Object.keys(operation?.responses ?? {}).sort()

const headerParameters = (operation: Operation | undefined) =>
  (operation?.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name)

/** JSON drops TypeBox's own markers, as the document does; the answers add a description. */
const json = (schema: object): object => JSON.parse(JSON.stringify(schema)) as object

/** The statuses each route documents, problems included. */
const STATUSES: Record<string, string> = {
  'get /api/news': '200 304 400 429',
  'post /api/news': '201 400 403 413 415 422 429',
  'get /api/news/{id}': '200 304 404',
  'patch /api/news/{id}': '200 400 403 404 412 413 415 422 429',
  'delete /api/news/{id}': '204 403 404 412 429',
  'get /api/news/{id}/revisions': '200 400 404',
  'get /api/trash': '200 400',
  'post /api/news/{id}/restore': '200 403 404 409 429',
  'post /api/news/{id}/revisions/{revision}/restore': '200 403 404 409 412 429',
  'get /api/changes': '200 400',
  'get /api/events': '200 400 429 503',
}

const { app } = useServer({ options: { distDir: fakeDistDir() } })
let spec: OpenApi

beforeAll(async () => {
  const response = await app.inject('/api/openapi.json')
  expect(response.statusCode).toBe(200)
  spec = response.json<OpenApi>()
})

describe('GET /api/openapi.json', () => {
  it('is OpenAPI 3.1 with every API route and no static file', () => {
    expect(spec.openapi).toBe('3.1.0')
    const routes = Object.entries(spec.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
      .sort()
    // Every route whose statuses the table lists, and three more.
    expect(routes).toEqual(
      [
        ...Object.keys(STATUSES),
        'get /api/config',
        'get /api/health',
        'post /api/v1.0/email/send-form',
      ].sort(),
    )
  })

  it.each(Object.entries(STATUSES))('documents the answers of %s: %s', (route, expected) => {
    const [method = '', path = ''] = route.split(' ')
    expect(statuses(spec.paths[path]?.[method]).join(' ')).toBe(expected)
  })

  it('documents the body of a post, and the fields of a 422 problem', () => {
    expect(spec.paths['/api/news']?.post?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { required: ['title', 'body', 'author'] } } },
    })
    expect(spec.paths['/api/news/{id}']?.patch?.responses['422']).toMatchObject({
      content: {
        'application/problem+json': { schema: { required: expect.arrayContaining(['status']) } },
      },
    })
  })

  it('documents versions, conditions, idempotency and the history routes', () => {
    const item = spec.paths['/api/news/{id}']
    expect(item?.get?.responses['200']?.headers).toHaveProperty('ETag')
    expect(headerParameters(item?.patch)).toEqual(['if-match'])
    expect(headerParameters(item?.delete)).toEqual(['if-match'])
    expect(item?.patch?.responses['412']).toMatchObject({
      content: {
        'application/problem+json': { schema: { required: expect.arrayContaining(['current']) } },
      },
    })
    expect(headerParameters(spec.paths['/api/news']?.post)).toEqual(['idempotency-key'])

    const history = spec.paths['/api/news/{id}/revisions']?.get
    expect(history?.responses['200']?.headers).toHaveProperty('Link')
    expect(history?.parameters?.map((parameter) => parameter.name).sort()).toEqual([
      'cursor',
      'id',
      'limit',
    ])
    expect(spec.paths['/api/trash']?.get?.responses['200']?.headers).toHaveProperty('Link')
  })

  it('documents the 304 to If-None-Match, with ETag and Cache-Control, on the list and a post', () => {
    for (const path of ['/api/news', '/api/news/{id}']) {
      const responses = spec.paths[path]?.get?.responses
      for (const status of ['200', '304']) {
        expect(Object.keys(responses?.[status]?.headers ?? {}).sort()).toEqual(
          expect.arrayContaining(['Cache-Control', 'ETag']),
        )
      }
      expect(responses?.['304']?.content).toBeUndefined()
    }
    expect(spec.paths['/api/news']?.get?.responses['200']?.headers).toHaveProperty('Link')
  })

  it('describes an item with its version, and a trashed one with its deletion', () => {
    expect(spec.paths['/api/news/{id}']?.get?.responses['200']).toMatchObject({
      content: {
        'application/json': {
          schema: { required: expect.arrayContaining(['updatedAt', 'revision']) },
        },
      },
    })
    expect(spec.paths['/api/trash']?.get?.responses['200']).toMatchObject({
      content: {
        'application/json': {
          schema: { items: { required: expect.arrayContaining(['revision', 'deletedAt']) } },
        },
      },
    })
    expect(spec.paths['/api/news/{id}/revisions']?.get?.responses['200']).toMatchObject({
      content: {
        'application/json': {
          schema: {
            items: { properties: expect.objectContaining({ restoredFrom: expect.anything() }) },
          },
        },
      },
    })
  })

  it('documents each answer by the wire schema the browser reads it by', () => {
    const answer = (path: string, method: string, status: string) => {
      const { content } = spec.paths[path]?.[method]?.responses[status] ?? {}
      return (content as { 'application/json'?: { schema: unknown } } | undefined)?.[
        'application/json'
      ]?.schema
    }
    expect(answer('/api/news/{id}', 'get', '200')).toMatchObject(json(NewsItemSchema))
    expect(answer('/api/news', 'post', '201')).toMatchObject(json(NewsItemSchema))
    for (const [path, schema] of [
      ['/api/news', NewsItemSchema],
      ['/api/trash', TrashedNewsItemSchema],
      ['/api/news/{id}/revisions', NewsRevisionSchema],
      ['/api/changes', RecentChangeSchema],
    ] as const) {
      expect(answer(path, 'get', '200'), path).toMatchObject({ type: 'array', items: json(schema) })
    }
    expect(json(NewsItemSchema)).toMatchObject({
      properties: { _id: { pattern: '^[A-Za-z0-9_-]{1,64}$' } },
    })
  })

  it('documents the operator’s refusals: a block with its reason and end, or a protection', () => {
    const patch = spec.paths['/api/news/{id}']?.patch?.responses['403'] as { description?: string }
    expect(patch.description).toMatch(/\/problems\/blocked.*\/problems\/protected/s)
    const create = spec.paths['/api/news']?.post?.responses['403']?.content
    expect(create).toMatchObject({
      'application/problem+json': {
        schema: { properties: { reason: { type: 'string' }, until: expect.any(Object) } },
      },
    })
  })

  it('describes the recent changes: the editor filter, the paging and the hidden revisions', () => {
    const changes = spec.paths['/api/changes']?.get
    expect(changes?.tags).toEqual(['history'])
    const names = (changes?.parameters ?? []).map((parameter) => parameter.name)
    expect(names).toEqual(['editor', 'limit', 'cursor'])
    expect(JSON.stringify(changes)).toMatch(/hidden: true/)
    expect(JSON.stringify(changes)).toMatch(/rel=\\"next\\"/)
  })

  it('describes the live stream: its resume points, its messages’ data, and its refusals', () => {
    const events = spec.paths['/api/events']?.get
    expect(events?.tags).toEqual(['live'])
    expect(headerParameters(events)).toEqual(['last-event-id'])
    expect(events?.parameters?.find((parameter) => parameter.in === 'query')?.name).toBe('since')
    expect(events?.responses['200']?.content).toMatchObject({
      'text/event-stream': {
        schema: { type: 'string' },
        'x-event-data': {
          change: json(NewsChangeSchema),
          ready: json(StreamPositionSchema),
          reset: json(StreamPositionSchema),
        },
      },
    })
    expect(events?.responses['429']?.headers).toHaveProperty('Retry-After')
  })
})
