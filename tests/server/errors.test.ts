import type { FastifyInstance } from 'fastify'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { MemoryNewsRepository } from '@/adapters/memory/memory-news.repository'
import type { ComposedServer } from '@/composition/server/server.composition'
import { buildApp } from '@/server/app'
import {
  JSON_HEADERS,
  composeTestServer,
  emptyDistDir,
  logCapture,
  memoryUseCases,
  removeTempDirs,
  testConfig,
} from './server-fixture'

const PROBLEM_TYPE = 'application/problem+json; charset=utf-8'

let server: ComposedServer
let app: FastifyInstance
let item: NewsItem

beforeAll(async () => {
  server = await composeTestServer()
  app = server.app
  const response = await app.inject({
    method: 'POST',
    url: '/api/news',
    headers: JSON_HEADERS,
    payload: { title: 'Title', body: 'Body', author: 'Ada' },
  })
  item = response.json<NewsItem>()
})

afterAll(async () => {
  await server.close()
  removeTempDirs()
})

const post = (payload: string | object, headers: Record<string, string> = JSON_HEADERS) =>
  app.inject({ method: 'POST', url: '/api/news', headers, payload })

const patch = (payload: string | object, headers: Record<string, string> = JSON_HEADERS) =>
  app.inject({ method: 'PATCH', url: `/api/news/${item._id}`, headers, payload })

describe('malformed and unacceptable bodies', () => {
  it.each([
    ['POST', post],
    ['PATCH', patch],
  ] as const)('%s answers 400 for malformed JSON', async (_method, send) => {
    const response = await send('{"title": "unterminated')
    expect(response.statusCode).toBe(400)
    expect(response.headers['content-type']).toBe(PROBLEM_TYPE)
    expect(response.json()).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'The body is not valid JSON.',
    })
  })

  it('answers 400 for an empty JSON body', async () => {
    const response = await post('')
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ status: 400 })
  })

  it('answers 400 for a prototype-poisoning body', async () => {
    const response = await post('{"title":"t","body":"b","author":"a","__proto__":{"x":1}}')
    expect(response.statusCode).toBe(400)
  })

  it.each([
    ['POST', post],
    ['PATCH', patch],
  ] as const)('%s answers 413 for a body over 16 KiB', async (_method, send) => {
    const response = await send({ title: 'T', body: 'x'.repeat(16 * 1024), author: 'A' })
    expect(response.statusCode).toBe(413)
    expect(response.headers['content-type']).toBe(PROBLEM_TYPE)
    expect(response.json()).toMatchObject({ status: 413, title: 'Payload Too Large' })
  })

  it.each([
    ['text/plain', 'title=T'],
    ['application/x-www-form-urlencoded', 'title=T&body=B&author=A'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/jsonp', '{}'],
  ])('POST answers 415 for %s', async (type, payload) => {
    const response = await post(payload, { 'content-type': type })
    expect(response.statusCode).toBe(415)
    expect(response.headers['content-type']).toBe(PROBLEM_TYPE)
    expect(response.json()).toMatchObject({ status: 415, title: 'Unsupported Media Type' })
  })

  it('POST answers 415 without a content type', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/news', payload: 'x' })
    expect(response.statusCode).toBe(415)
  })

  it('PATCH answers 415 for text', async () => {
    const response = await patch('title=T', { 'content-type': 'text/plain' })
    expect(response.statusCode).toBe(415)
  })

  it('accepts JSON with a charset', async () => {
    const response = await post(
      { title: 'T', body: 'B', author: 'A' },
      { 'content-type': 'application/json; charset=utf-8' },
    )
    expect(response.statusCode).toBe(201)
  })
})

describe('422 with the domain’s message for each field', () => {
  it('names every missing field', async () => {
    const response = await post({})
    expect(response.statusCode).toBe(422)
    expect(response.headers['content-type']).toBe(PROBLEM_TYPE)
    expect(response.json()).toEqual({
      type: 'about:blank',
      title: 'Unprocessable Entity',
      status: 422,
      detail: expect.any(String),
      errors: {
        title: 'Sorry, title is required',
        body: 'Sorry, body is required',
        author: 'Sorry, author is required',
      },
    })
  })

  it('treats white space as missing', async () => {
    const response = await post({ title: '   ', body: '\n\t', author: ' ' })
    expect(response.json().errors).toEqual({
      title: 'Sorry, title is required',
      body: 'Sorry, body is required',
      author: 'Sorry, author is required',
    })
  })

  it('words each length limit as the form does', async () => {
    const response = await post({
      title: 'x'.repeat(101),
      body: 'x'.repeat(501),
      author: 'x'.repeat(31),
    })
    expect(response.statusCode).toBe(422)
    expect(response.json().errors).toEqual({
      title: 'Must be 100 characters or less',
      body: 'Must be 500 characters or less',
      author: 'Name must be less than 30 characters',
    })
  })

  it('gives the domain’s message even past the schema’s loose bound', async () => {
    const response = await post({ title: 'x'.repeat(2000), body: 'B', author: 'A' })
    expect(response.statusCode).toBe(422)
    expect(response.json().errors).toEqual({ title: 'Must be 100 characters or less' })
  })

  it('accepts each field at its limit', async () => {
    const response = await post({
      title: 'x'.repeat(100),
      body: 'x'.repeat(500),
      author: 'x'.repeat(30),
    })
    expect(response.statusCode).toBe(201)
  })

  it('treats a value that is not text as missing, never as text', async () => {
    const response = await post({ title: 5, body: true, author: null })
    expect(response.statusCode).toBe(422)
    expect(response.json().errors).toEqual({
      title: 'Sorry, title is required',
      body: 'Sorry, body is required',
      author: 'Sorry, author is required',
    })
  })

  it.each([['[]'], ['"text"'], ['42'], ['null']])(
    'answers a body of %s like an empty post',
    async (body) => {
      const response = await post(body)
      expect(response.statusCode).toBe(422)
      expect(Object.keys(response.json().errors).sort()).toEqual(['author', 'body', 'title'])
    },
  )

  it('PATCH checks only the fields given', async () => {
    const response = await patch({ title: '', author: 'x'.repeat(31) })
    expect(response.statusCode).toBe(422)
    expect(response.json().errors).toEqual({
      title: 'Sorry, title is required',
      author: 'Name must be less than 30 characters',
    })
  })

  it('PATCH refuses a value that is not text', async () => {
    const response = await patch({ body: 7 })
    expect(response.statusCode).toBe(422)
    expect(response.json().errors).toEqual({ body: 'Sorry, body is required' })
  })

  it.each([[{}], [{ _id: 'x', createdAt: '2000-01-01T00:00:00.000Z' }], [[]]])(
    'PATCH with nothing to change (%j) is 422 and changes nothing',
    async (body) => {
      const response = await patch(body)
      expect(response.statusCode).toBe(422)
      expect(response.json()).toMatchObject({ status: 422, detail: expect.stringMatching(/title/) })
      expect((await app.inject(`/api/news/${item._id}`)).json()).toEqual(item)
    },
  )

  it('stores nothing from an invalid post', async () => {
    const before = (await app.inject('/api/news?limit=100')).json<NewsItem[]>().length
    await post({ title: '', body: 'B', author: 'A' })
    expect((await app.inject('/api/news?limit=100')).json()).toHaveLength(before)
  })
})

describe('unknown API paths', () => {
  it.each([
    ['GET', '/api/nothing'],
    ['GET', '/api'],
    ['POST', '/api/news/some-id'],
    ['PUT', '/api/news'],
    ['GET', '/api/news/a/b'],
    ['GET', '/api/v1.0/email/send-form'],
    ['GET', '/api/news/some-id/restore'],
    ['PATCH', '/api/news/some-id/revisions'],
    ['GET', '/api/news/some-id/revisions/1/restore'],
    ['DELETE', '/api/trash'],
  ] as const)('%s %s answers a 404 problem', async (method, url) => {
    const response = await app.inject({ method, url })
    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toBe(PROBLEM_TYPE)
    expect(response.json()).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: expect.any(String),
    })
  })
})

describe('server failures', () => {
  const SECRET = 'SQLITE_CORRUPT at /srv/secret/newswire.db line 42'

  class BrokenRepository extends MemoryNewsRepository implements NewsRepository {
    override async list(): Promise<never> {
      throw new Error(SECRET)
    }
    override async trash(): Promise<never> {
      throw new Error(SECRET)
    }
    override async revisions(): Promise<never> {
      throw new Error(SECRET)
    }
    override async restore(): Promise<never> {
      throw new Error(SECRET)
    }
    override async restoreRevision(): Promise<never> {
      throw new Error(SECRET)
    }
  }

  it.each([
    ['GET', '/api/trash'],
    ['GET', '/api/news/some-id/revisions'],
    ['POST', '/api/news/some-id/restore'],
    ['POST', '/api/news/some-id/revisions/2/restore'],
  ] as const)('%s %s answers 503 without internals when the store fails', async (method, url) => {
    const broken = await buildApp({
      useCases: memoryUseCases(new BrokenRepository()),
      config: testConfig(),
      health: async () => true,
      distDir: emptyDistDir(),
    })
    const response = await broken.inject({ method, url })
    await broken.close()
    expect(response.statusCode).toBe(503)
    expect(response.headers['content-type']).toBe(PROBLEM_TYPE)
    expect(response.body).not.toContain('SQLITE')
    expect(response.json()).toMatchObject({ status: 503, title: 'Service Unavailable' })
  })

  it('answers 503 without internals when the repository throws a raw Error', async () => {
    const broken = await buildApp({
      useCases: memoryUseCases(new BrokenRepository()),
      config: testConfig(),
      health: async () => true,
      distDir: emptyDistDir(),
    })
    const response = await broken.inject('/api/news')
    await broken.close()
    expect(response.statusCode).toBe(503)
    expect(response.headers['content-type']).toBe(PROBLEM_TYPE)
    expect(response.body).not.toContain('SQLITE')
    expect(response.body).not.toContain('secret')
    expect(response.json()).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The service is unavailable right now. Try again later.',
    })
  })

  it('answers 500 without internals, and logs the error, when a route itself fails', async () => {
    const useCases = memoryUseCases()
    vi.spyOn(useCases.getNewsItem, 'execute').mockRejectedValue(new Error(SECRET))
    const log = logCapture()
    const broken = await buildApp({
      useCases,
      config: testConfig(),
      health: async () => true,
      distDir: emptyDistDir(),
      logger: { level: 'error', stream: log.stream },
    })
    const response = await broken.inject('/api/news/some-id')
    await broken.close()
    expect(response.statusCode).toBe(500)
    expect(response.body).not.toContain('SQLITE')
    expect(response.body).not.toContain('stack')
    expect(response.json()).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'Something went wrong on our side. Try again later.',
    })
    const logged = log.lines().find((line) => line.msg === 'request failed')
    expect(JSON.stringify(logged)).toContain(SECRET)
  })

  it('logs requests without their bodies', async () => {
    const log = logCapture()
    const logged = await buildApp({
      useCases: memoryUseCases(),
      config: testConfig(),
      health: async () => true,
      distDir: emptyDistDir(),
      logger: { level: 'info', stream: log.stream },
    })
    await logged.inject({
      method: 'POST',
      url: '/api/news',
      headers: JSON_HEADERS,
      payload: { title: 'Private title', body: 'Private body', author: 'Private author' },
    })
    await logged.close()
    const text = log
      .lines()
      .map((line) => JSON.stringify(line))
      .join('\n')
    expect(text).toContain('"method":"POST"')
    expect(text).not.toContain('Private')
  })
})
