import type { ServerResponse } from 'node:http'
import { RuntimeConfigClient } from '@/adapters/http/runtime-config.client'
import { unavailable } from '@/domain/domain-error'
import { sendJson, sendProblem, startLocalServer, type LocalServer } from './news-api.stand-in'

const config = {
  emailjs: {
    origin: '',
    publicKey: 'public-key',
    serviceId: 'service_1',
    templateId: 'template_1',
  },
}

let answer: (response: ServerResponse) => void
let api: LocalServer

beforeAll(async () => {
  api = await startLocalServer((request, response) =>
    request.rawUrl === '/api/config' ? answer(response) : sendProblem(response, 404, 'Not Found'),
  )
})

afterAll(() => api.close())

beforeEach(() => {
  api.received.length = 0
  answer = (response) => sendJson(response, 200, config)
})

describe('RuntimeConfigClient', () => {
  it('loads the run-time settings from GET /api/config', async () => {
    const client = new RuntimeConfigClient({ baseUrl: api.origin })

    expect(await client.load()).toEqual(config)
    expect(await client.loadEmailJsSettings()).toEqual(config.emailjs)
  })

  it('asks the server only once, however often and however soon it is called', async () => {
    const client = new RuntimeConfigClient({ baseUrl: api.origin })

    await Promise.all([client.load(), client.load(), client.loadEmailJsSettings()])
    await client.load()

    expect(api.received).toHaveLength(1)
  })

  it('tries again on a later call after a failed load', async () => {
    const client = new RuntimeConfigClient({ baseUrl: api.origin })
    answer = (response) => sendProblem(response, 503, 'Service Unavailable')

    await expect(client.load()).rejects.toEqual(unavailable())
    answer = (response) => sendJson(response, 200, config)

    expect(await client.load()).toEqual(config)
    expect(api.received).toHaveLength(2)
  })

  it.each([
    ['a missing template id', { emailjs: { ...config.emailjs, templateId: undefined } }],
    ['a script origin', { emailjs: { ...config.emailjs, origin: 'javascript:alert(1)' } }],
    ['no emailjs section', {}],
    ['an array', [config]],
  ])('rejects a config with %s as Unavailable', async (_case, body) => {
    answer = (response) => sendJson(response, 200, body)
    const client = new RuntimeConfigClient({ baseUrl: api.origin })

    const error = await client.load().catch((thrown: unknown) => thrown)

    expect(error).toEqual(unavailable())
  })

  it('keeps only the settings it knows', async () => {
    answer = (response) =>
      sendJson(response, 200, { emailjs: { ...config.emailjs, privateKey: 'x' }, debug: true })
    const client = new RuntimeConfigClient({ baseUrl: api.origin })

    expect(await client.load()).toEqual(config)
  })
})
