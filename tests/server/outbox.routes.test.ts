import type { FastifyInstance } from 'fastify'
import { SqlOutboxMailer } from '@/adapters/outbox/sql-outbox.mailer'
import {
  composeTestServer,
  contactForm,
  EMAILJS_ACCOUNT,
  SEND_FORM,
  sendForm,
  SITE_ORIGIN,
  useServer,
} from './server-fixture'

const validForm = contactForm()

const { server, app } = useServer()
let outbox: SqlOutboxMailer

beforeAll(() => {
  outbox = new SqlOutboxMailer(server.database)
})

const send = (
  fields: Record<string, string>,
  headers?: Record<string, string | undefined>,
  to: FastifyInstance = app,
) => sendForm(to, fields, { headers })

describe('the built-in outbox', () => {
  it('stores a valid message and answers OK as text', async () => {
    const before = await outbox.count()
    const response = await send(validForm)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(response.body).toBe('OK')
    expect(await outbox.count()).toBe(before + 1)
    const [stored] = await outbox.list(1)
    expect(stored).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Hello from the contact form.',
    })
  })

  it.each([
    ['service_id', 'The service ID is required'],
    ['template_id', 'The template ID is required'],
    ['user_id', 'The user ID is required'],
  ])('answers 400 "%s is required" in EmailJS’s words when it is missing', async (field, text) => {
    const form: Record<string, string> = { ...validForm }
    delete form[field]
    const before = await outbox.count()
    const response = await send(form)
    expect(response.statusCode).toBe(400)
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(response.body).toBe(text)
    expect(await outbox.count()).toBe(before)
  })

  it.each([
    ['service_id', 'The service ID is invalid'],
    ['template_id', 'The template ID is invalid'],
    ['user_id', 'The public key is invalid'],
  ])('answers 400 in EmailJS’s words when %s is wrong', async (field, text) => {
    const before = await outbox.count()
    const response = await send({ ...validForm, [field]: 'someone_else' })
    expect(response.statusCode).toBe(400)
    expect(response.body).toBe(text)
    expect(await outbox.count()).toBe(before)
  })

  it('refuses an invalid message with the domain’s messages and stores nothing', async () => {
    const before = await outbox.count()
    const response = await send({
      ...validForm,
      name: '',
      email: 'not-an-address',
      message: 'x'.repeat(501),
    })
    expect(response.statusCode).toBe(400)
    expect(response.body.split('\n').sort()).toEqual([
      'Invalid email address',
      'Must be 500 characters or less',
      'Sorry, name is required',
    ])
    expect(await outbox.count()).toBe(before)
  })

  it('answers 400 as text to a request that is not a form', async () => {
    const response = await app.inject({
      method: 'POST',
      url: SEND_FORM,
      headers: { 'content-type': 'application/json', origin: SITE_ORIGIN },
      payload: validForm,
    })
    expect(response.statusCode).toBe(400)
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  it('refuses an attached file', async () => {
    const form = new FormData()
    for (const [name, value] of Object.entries(validForm)) form.append(name, value)
    form.append('attachment', new Blob(['data']), 'file.txt')
    const request = new Request('http://localhost/', { method: 'POST', body: form })
    const response = await app.inject({
      method: 'POST',
      url: SEND_FORM,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type') ?? '', origin: SITE_ORIGIN },
    })
    expect(response.statusCode).toBe(413)
  })

  it('never shows stored messages over HTTP', async () => {
    await send({ ...validForm, email: 'private@example.com' })
    for (const url of [SEND_FORM, '/api/outbox', '/api/v1.0/email', '/api/messages']) {
      const response = await app.inject(url)
      expect(response.statusCode).toBe(404)
      expect(response.body).not.toContain('private@example.com')
    }
    const spec = (await app.inject('/api/openapi.json')).json<{ paths: Record<string, object> }>()
    const methods = Object.entries(spec.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    )
    expect(methods.filter((entry) => entry.includes('email'))).toEqual([`post ${SEND_FORM}`])
  })
})

describe('the outbox’s origin check', () => {
  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['the same host on another scheme', { origin: 'https://localhost' }],
    ['the same host on another port', { origin: 'http://localhost:8080' }],
    ['an opaque origin (null)', { origin: 'null' }],
    ['no Origin header at all', {}],
  ])('refuses a post from %s with a 403 problem and stores nothing', async (_, origin) => {
    const before = await outbox.count()
    const response = await send(validForm, origin)
    expect(response.statusCode).toBe(403)
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8')
    expect(response.json()).toMatchObject({ status: 403, title: 'Forbidden' })
    expect(await outbox.count()).toBe(before)
  })

  it('takes the site’s origin from the Host the page was served from', async () => {
    const response = await send(validForm, {
      host: 'news.example.com:8443',
      origin: 'http://news.example.com:8443',
    })
    expect(response.statusCode).toBe(200)
  })

  it('ignores X-Forwarded-Host and X-Forwarded-Proto while TRUST_PROXY is off', async () => {
    const response = await send(validForm, {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      origin: 'https://evil.example',
    })
    expect(response.statusCode).toBe(403)
  })

  it('believes X-Forwarded-Host and X-Forwarded-Proto from a trusted proxy', async () => {
    const behindProxy = await composeTestServer({ TRUST_PROXY: '127.0.0.1' })
    try {
      const forwarded = { 'x-forwarded-host': 'news.example.com', 'x-forwarded-proto': 'https' }
      const fromSite = await send(
        validForm,
        { ...forwarded, origin: 'https://news.example.com' },
        behindProxy.app,
      )
      expect(fromSite.statusCode).toBe(200)
      const fromProxyHost = await send(
        validForm,
        { ...forwarded, origin: SITE_ORIGIN },
        behindProxy.app,
      )
      expect(fromProxyHost.statusCode).toBe(403)
    } finally {
      await behindProxy.close()
    }
  })

  it('accepts only PUBLIC_URL’s origin once it is set, whatever the Host', async () => {
    const published = await composeTestServer({ PUBLIC_URL: 'https://news.example.com/' })
    try {
      const fromSite = await send(validForm, { origin: 'https://news.example.com' }, published.app)
      expect(fromSite.statusCode).toBe(200)
      const fromHost = await send(validForm, { origin: SITE_ORIGIN }, published.app)
      expect(fromHost.statusCode).toBe(403)
    } finally {
      await published.close()
    }
  })
})

describe('with an EmailJS account', () => {
  it('has no outbox', async () => {
    const withAccount = await composeTestServer(EMAILJS_ACCOUNT)
    try {
      const response = await sendForm(withAccount.app, validForm, { headers: {} })
      expect(response.statusCode).toBe(404)
      expect(await new SqlOutboxMailer(withAccount.database).count()).toBe(0)
    } finally {
      await withAccount.close()
    }
  })
})
