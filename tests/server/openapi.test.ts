import type { ComposedServer } from '@/composition/server/server.composition'
import { composeTestServer, fakeDistDir, removeTempDirs } from './server-fixture'

interface OpenApi {
  openapi: string
  paths: Record<
    string,
    Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>
  >
}

let server: ComposedServer
let spec: OpenApi

beforeAll(async () => {
  server = await composeTestServer({}, { distDir: fakeDistDir() })
  const response = await server.app.inject('/api/openapi.json')
  expect(response.statusCode).toBe(200)
  spec = response.json<OpenApi>()
})

afterAll(async () => {
  await server.close()
  removeTempDirs()
})

describe('GET /api/openapi.json', () => {
  it('is OpenAPI 3.1 with every API route and no static file', () => {
    expect(spec.openapi).toBe('3.1.0')
    const routes = Object.entries(spec.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
      .sort()
    expect(routes).toEqual([
      'delete /api/news/{id}',
      'get /api/config',
      'get /api/health',
      'get /api/news',
      'get /api/news/{id}',
      'patch /api/news/{id}',
      'post /api/news',
      'post /api/v1.0/email/send-form',
    ])
  })

  it('documents the answers of the contract, problems included', () => {
    const news = spec.paths['/api/news']
    expect(Object.keys(news?.get?.responses ?? {})).toEqual(['200', '400'])
    expect(Object.keys(news?.post?.responses ?? {}).sort()).toEqual([
      '201',
      '400',
      '413',
      '415',
      '422',
      '429',
    ])
    expect(news?.post?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { required: ['title', 'body', 'author'] } } },
    })
    const item = spec.paths['/api/news/{id}']
    expect(Object.keys(item?.get?.responses ?? {})).toEqual(['200', '404'])
    expect(item?.delete?.responses['204']).toBeDefined()
    expect(item?.patch?.responses['422']).toMatchObject({
      content: {
        'application/problem+json': { schema: { required: expect.arrayContaining(['status']) } },
      },
    })
  })
})
