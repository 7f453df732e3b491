// @vitest-environment jsdom
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EmailJsMailer } from '@/adapters/emailjs/emailjs.mailer'
import { RuntimeConfigClient } from '@/adapters/http/runtime-config.client'
import type { EmailJsSettings } from '@/application/runtime-config'
import type { ContactMessage } from '@/domain/contact-message.entity'
import { forbidden, unavailable } from '@/domain/domain-error'
import { domainErrorOf } from '../../support/domain-error-of'

const PUBLIC_KEY = 'pk_newswire_test'
const SERVICE_ID = 'service_newswire'
const TEMPLATE_ID = 'template_contact'

const BLOCKED_PROBLEM = JSON.stringify({
  type: '/problems/blocked',
  title: 'Forbidden',
  status: 403,
  detail: 'The operator blocked writes from your address until 2026-12-01T10:00:00.000Z.',
  reason: 'spam wave',
  until: '2026-12-01T10:00:00.000Z',
})

const message: ContactMessage = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello,\nsee you at the press office.',
}

interface Received {
  readonly path: string
  readonly contentType: string
  readonly fields: Readonly<Record<string, string>>
  /** What the stand-in answered; undefined while it keeps silent. */
  readonly answer: readonly [number, string] | undefined
}

/** A stand-in for EmailJS (and for the API's /api/config) that checks ids as EmailJS does. */
let server: Server
let origin: string
let received: Received[]
let configAnswer: (response: ServerResponse) => void
const silent: ServerResponse[] = []

function emailJsAnswer(fields: Readonly<Record<string, string>>): [number, string] | undefined {
  if (fields.service_id === 'service_silent') return undefined
  if (fields.service_id === 'service_queue') return [202, 'Queued']
  // The built-in outbox, for a client the operator blocked: the API's 403 problem.
  if (fields.service_id === 'service_blocked') return [403, BLOCKED_PROBLEM]
  if (fields.service_id !== SERVICE_ID) return [400, 'The service ID is invalid']
  if (fields.template_id !== TEMPLATE_ID) return [400, 'The template ID is invalid']
  if (fields.user_id !== PUBLIC_KEY) return [400, 'The Public Key is invalid']
  return [200, 'OK']
}

async function answerSendForm(
  path: string,
  contentType: string,
  body: Uint8Array<ArrayBuffer>,
  response: ServerResponse,
) {
  // Node's own multipart parser reads the body as a real server would; a body that is not
  // multipart leaves no fields, and EmailJS would refuse it.
  const form = await new Response(body, { headers: { 'Content-Type': contentType } })
    .formData()
    .catch(() => new FormData())
  const fields = Object.fromEntries([...form].map(([name, value]) => [name, String(value)]))
  const answer = emailJsAnswer(fields)
  received.push({ path, contentType, fields, answer })
  if (answer === undefined) silent.push(response)
  else response.writeHead(answer[0]).end(answer[1])
}

function settings(overrides: Partial<EmailJsSettings> = {}): EmailJsSettings {
  return {
    origin,
    publicKey: PUBLIC_KEY,
    serviceId: SERVICE_ID,
    templateId: TEMPLATE_ID,
    ...overrides,
  }
}

/** A mailer whose settings differ from the stand-in's account by `overrides`. */
function mailerWith(overrides: Partial<EmailJsSettings>, timeoutMs?: number): EmailJsMailer {
  return new EmailJsMailer({ loadSettings: async () => settings(overrides), timeoutMs })
}

beforeAll(async () => {
  // The SDK posts `new FormData(form)`; under jsdom that is jsdom's FormData, which Node's fetch
  // sends as multipart only while undici accepts look-alikes (Node 20; undici 7 checks the brand).
  // So, in this test only, FormData is Node's own class, filled from the form by jsdom's FormData
  // (the HTML algorithm). The adapter keeps plain browser code.
  const probe = new Response('', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  })
  const NodeFormData = (await probe.formData()).constructor as typeof FormData
  const JsdomFormData = globalThis.FormData
  vi.stubGlobal(
    'FormData',
    class extends NodeFormData {
      constructor(form?: HTMLFormElement) {
        super()
        if (form) new JsdomFormData(form).forEach((value, name) => this.append(name, value))
      }
    },
  )

  server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = request.url ?? '/'
      if (path === '/api/config') return configAnswer(response)
      if (path === '/api/v1.0/email/send-form' && request.method === 'POST') {
        const contentType = request.headers['content-type'] ?? ''
        const body = new Uint8Array(Buffer.concat(chunks))
        return void answerSendForm(path, contentType, body, response)
      }
      response.writeHead(404).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  vi.unstubAllGlobals()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  received = []
  configAnswer = (response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' })
    response.end(JSON.stringify({ emailjs: settings({ origin: '' }) }))
  }
})

afterEach(() => {
  for (const response of silent.splice(0)) response.destroy()
})

describe('EmailJsMailer with the real @emailjs/browser SDK', () => {
  it('posts the message and the ids as multipart form data to EmailJS', async () => {
    const mailer = new EmailJsMailer({ loadSettings: async () => settings(), apiOrigin: '' })

    await mailer.send(message)

    expect(received).toHaveLength(1)
    const [{ path, contentType, fields }] = received as [Received]
    expect(path).toBe('/api/v1.0/email/send-form')
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/)
    expect(fields.service_id).toBe(SERVICE_ID)
    expect(fields.template_id).toBe(TEMPLATE_ID)
    expect(fields.user_id).toBe(PUBLIC_KEY)
    expect(fields.lib_version).toMatch(/^4\.\d+\.\d+$/)
    expect(fields.name).toBe(message.name)
    expect(fields.email).toBe(message.email)
    // Multipart carries line breaks as CRLF; what matters is that they survive.
    expect(fields.message?.replace(/\r\n/g, '\n')).toBe(message.message)
    expect(Object.keys(fields).sort()).toEqual([
      'email',
      'lib_version',
      'message',
      'name',
      'service_id',
      'template_id',
      'user_id',
    ])
  })

  it('sends to the API origin (the built-in outbox) when the settings name no origin', async () => {
    const mailer = new EmailJsMailer({
      loadSettings: async () => settings({ origin: '' }),
      apiOrigin: origin,
    })

    await mailer.send(message)

    expect(received.map((r) => r.fields.name)).toEqual([message.name])
  })

  it('sends with the settings the runtime-config client loads from /api/config', async () => {
    const config = new RuntimeConfigClient({ baseUrl: origin })
    const mailer = new EmailJsMailer({
      loadSettings: config.loadEmailJsSettings,
      apiOrigin: origin,
    })

    await mailer.send(message)

    expect(received).toHaveLength(1)
    expect(received[0]?.fields.user_id).toBe(PUBLIC_KEY)
  })

  it.each([
    ['public key', { publicKey: '' }],
    ['service id', { serviceId: '' }],
    ['template id', { templateId: '' }],
  ])('fails as Unavailable without a %s and sends nothing', async (_name, missing) => {
    expect(await domainErrorOf(mailerWith(missing).send(message))).toEqual(unavailable())
    expect(received).toHaveLength(0)
  })

  it.each([
    ['answers 400', 'service_unknown', [400, 'The service ID is invalid']],
    ["answers neither status 200 nor 'OK'", 'service_queue', [202, 'Queued']],
  ])('fails as Unavailable when EmailJS %s', async (_what, serviceId, answer) => {
    expect(await domainErrorOf(mailerWith({ serviceId }).send(message))).toEqual(unavailable())
    expect(received.map((r) => r.answer)).toEqual([answer])
  })

  it('fails as Forbidden with the reason and end of the block when the outbox refuses a blocked client', async () => {
    expect(await domainErrorOf(mailerWith({ serviceId: 'service_blocked' }).send(message))).toEqual(
      forbidden({ reason: 'blocked', note: 'spam wave', until: '2026-12-01T10:00:00.000Z' }),
    )
  })

  it('fails as Unavailable and sends nothing when /api/config fails', async () => {
    configAnswer = (response) => response.writeHead(500).end('boom')
    const config = new RuntimeConfigClient({ baseUrl: origin })
    const mailer = new EmailJsMailer({
      loadSettings: config.loadEmailJsSettings,
      apiOrigin: origin,
    })

    expect(await domainErrorOf(mailer.send(message))).toEqual(unavailable())
    expect(received).toHaveLength(0)
  })

  it('fails as Unavailable after timeoutMs when EmailJS never answers', async () => {
    const mailer = mailerWith({ serviceId: 'service_silent' }, 200)

    expect(await domainErrorOf(mailer.send(message))).toEqual(unavailable())
    expect(silent).toHaveLength(1)
  })
})
