import type { FastifyInstance } from 'fastify'
import type { ComposedServer } from '@/composition/server/server.composition'
import {
  EMAILJS_ACCOUNT,
  composeTestServer,
  editThroughApi,
  postNews,
  contactForm,
  sendForm,
} from './server-fixture'

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/)
      return [name, values]
    }),
  )
}

describe('security headers', () => {
  let server: ComposedServer

  beforeAll(async () => {
    server = await composeTestServer()
  })
  afterAll(() => server.close())

  it('sends helmet’s headers on API answers', async () => {
    const response = await server.app.inject('/api/news')
    expect(response.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'strict-transport-security': expect.stringContaining('max-age='),
    })
    expect(response.headers['x-powered-by']).toBeUndefined()
  })

  it('allows the app itself, its image service, and nothing inline', async () => {
    const csp = (await server.app.inject('/api/health')).headers['content-security-policy']
    expect(typeof csp).toBe('string')
    const policy = directives(csp as string)
    expect(policy.get('default-src')).toEqual(["'self'"])
    expect(policy.get('script-src')).toEqual(["'self'"])
    expect(policy.get('style-src')).toEqual(["'self'"])
    expect(policy.get('object-src')).toEqual(["'none'"])
    expect(policy.get('connect-src')).toEqual(["'self'"])
    expect(policy.get('img-src')).toEqual([
      "'self'",
      'data:',
      'https://picsum.photos',
      'https://fastly.picsum.photos',
    ])
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    expect(policy.has('upgrade-insecure-requests')).toBe(false)
  })

  it('lets the app reach the configured EmailJS origin when an account is set', async () => {
    const withAccount = await composeTestServer({
      ...EMAILJS_ACCOUNT,
      EMAILJS_ORIGIN: 'https://mail.example.org',
    })
    const csp = (await withAccount.app.inject('/api/config')).headers['content-security-policy']
    await withAccount.close()
    expect(directives(csp as string).get('connect-src')).toEqual([
      "'self'",
      'https://mail.example.org',
    ])
  })
})

describe('the write rate limit', () => {
  let server: ComposedServer
  let app: FastifyInstance

  beforeAll(async () => {
    server = await composeTestServer({ WRITE_RATE_LIMIT: '3' })
    app = server.app
  })
  afterAll(() => server.close())

  const createPost = () => postNews(app)

  it('counts every kind of write together and answers 429 with Retry-After past the limit', async () => {
    const created = await createPost()
    expect(created.statusCode).toBe(201)
    expect(created.headers['x-ratelimit-limit']).toBe('3')
    const id = created.json<{ _id: string }>()._id
    const edited = await editThroughApi({ app }, id, { title: 'U' })
    expect(edited.statusCode).toBe(200)
    expect((await app.inject({ method: 'DELETE', url: `/api/news/${id}` })).statusCode).toBe(204)

    const refused = await createPost()
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8')
    expect(refused.json()).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: expect.stringMatching(/^Too many writes from your address\. Retry in \d+ s\.$/),
    })

    const mail = await sendForm(app, contactForm())
    expect(mail.statusCode).toBe(429)
    expect(mail.headers['retry-after']).toBeDefined()
  })

  it('never limits reads', async () => {
    for (let i = 0; i < 10; i += 1) {
      expect((await app.inject('/api/news')).statusCode).toBe(200)
    }
  })
})

describe('the write rate limit on restores', () => {
  it('counts restores as writes, and a refused write leaves the cached first page alone', async () => {
    const server = await composeTestServer({ WRITE_RATE_LIMIT: '3' })
    const { app } = server
    try {
      const created = await postNews(app)
      const id = created.json<{ _id: string }>()._id
      expect((await app.inject({ method: 'DELETE', url: `/api/news/${id}` })).statusCode).toBe(204)
      const restored = await app.inject({ method: 'POST', url: `/api/news/${id}/restore` })
      expect(restored.statusCode).toBe(200)
      expect(restored.headers['x-ratelimit-remaining']).toBe('0')

      for (const url of [`/api/news/${id}/restore`, `/api/news/${id}/revisions/1/restore`]) {
        const refused = await app.inject({ method: 'POST', url })
        expect(refused.statusCode).toBe(429)
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
        expect(refused.json()).toMatchObject({ status: 429, title: 'Too Many Requests' })
      }
      expect((await app.inject(`/api/news/${id}/revisions`)).json()).toHaveLength(3)
    } finally {
      await server.close()
    }
  })
})

describe('WRITE_RATE_LIMIT=0', () => {
  it('turns the limit off', async () => {
    const server = await composeTestServer({ WRITE_RATE_LIMIT: '0' })
    const statuses: number[] = []
    for (let i = 0; i < 70; i += 1) {
      const response = await postNews(server.app, { title: `T${i}`, body: 'B', author: 'A' })
      statuses.push(response.statusCode)
    }
    await server.close()
    expect(new Set(statuses)).toEqual(new Set([201]))
  })
})
