import { connect, type AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { MAX_REVISION } from '@/domain/rules/news-history.rules'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import { SqlOutboxMailer } from '@/adapters/outbox/sql-outbox.mailer'
import { encodeCursor, encodeRevisionCursor } from '@/adapters/shared/keyset-cursor'
import type { ComposedServer } from '@/composition/server/server.composition'
import { MALFORMED_FORM_DETAIL } from '@/server/plugins/error-handler'
import {
  JSON_HEADERS,
  composeTestServer,
  createPostThroughApi,
  logCapture,
  memoryUseCases,
  multipart,
  SITE_ORIGIN,
  describeOnDatabases,
  useServer,
  memoryApp,
  expectProblem,
  PROBLEM_TYPE,
  postNews,
  editThroughApi,
  contactForm,
  SEND_FORM,
  sendForm,
} from './server-fixture'

const { app } = useServer()
let item: NewsItem

beforeAll(async () => {
  const response = await postNews(app, { title: 'Title', body: 'Body', author: 'Ada' })
  item = response.json<NewsItem>()
})

/** An app over in-memory use cases whose log lines the test can read. */
async function appLoggingAt(level: 'info' | 'error', useCases = memoryUseCases()) {
  const log = logCapture()
  const logged = await memoryApp({ useCases, logger: { level, stream: log.stream } })
  return { app: logged, log }
}

/** GET /api/news/some-id while reading a post rejects with `error`: the answer, and its log line. */
async function failedRead(error: Error) {
  const useCases = memoryUseCases()
  vi.spyOn(useCases.getNewsItem, 'execute').mockRejectedValue(error)
  const { app: broken, log } = await appLoggingAt('error', useCases)
  const response = await broken.inject('/api/news/some-id')
  await broken.close()
  return { response, logged: log.lines().find((line) => line.msg === 'request failed') }
}

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
    expectProblem(response, 400, 'Bad Request', { detail: 'The body is not valid JSON.' })
  })

  it.each([
    ['an empty JSON body', ''],
    ['a prototype-poisoning body', '{"title":"t","body":"b","author":"a","__proto__":{"x":1}}'],
  ])('answers 400 for %s', async (_what, body) => {
    expectProblem(await post(body), 400, 'Bad Request')
  })

  it.each([
    ['POST', post],
    ['PATCH', patch],
  ] as const)('%s answers 413 for a body over 16 KiB', async (_method, send) => {
    const response = await send({ title: 'T', body: 'x'.repeat(16 * 1024), author: 'A' })
    expect([response.statusCode, response.headers['content-type']]).toEqual([413, PROBLEM_TYPE])
    expect(response.json()).toMatchObject({ status: 413, title: 'Payload Too Large' })
  })

  it.each([
    ['POST', post, 'text/plain', 'title=T'],
    ['POST', post, 'application/x-www-form-urlencoded', 'title=T&body=B&author=A'],
    ['POST', post, 'multipart/form-data; boundary=x', '--x--'],
    ['POST', post, 'application/jsonp', '{}'],
    ['POST', post, undefined, 'x'],
    ['PATCH', patch, 'text/plain', 'title=T'],
  ] as const)('%s answers 415 for the content type %s', async (_method, send, type, payload) => {
    const response = await send(payload, type === undefined ? {} : { 'content-type': type })
    expect([response.statusCode, response.headers['content-type']]).toEqual([415, PROBLEM_TYPE])
    expect(response.json()).toMatchObject({ status: 415, title: 'Unsupported Media Type' })
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
  it.each([
    ['names every missing field', {}],
    ['treats white space as missing', { title: '   ', body: '\n\t', author: ' ' }],
    [
      'treats a value that is not text as missing, never as text',
      { title: 5, body: true, author: null },
    ],
  ])('%s', async (_behaviour, payload) => {
    expectProblem(await post(payload), 422, 'Unprocessable Entity', {
      errors: {
        title: 'Sorry, title is required',
        body: 'Sorry, body is required',
        author: 'Sorry, author is required',
      },
    })
  })

  const TITLE_TOO_LONG = 'Must be 100 characters or less'
  const AUTHOR_TOO_LONG = 'Name must be less than 30 characters'
  it.each([
    [
      'words each length limit as the form does',
      post,
      { title: 'x'.repeat(101), body: 'x'.repeat(501), author: 'x'.repeat(31) },
      { title: TITLE_TOO_LONG, body: 'Must be 500 characters or less', author: AUTHOR_TOO_LONG },
    ],
    [
      'gives the domain’s message even past the schema’s loose bound',
      post,
      { title: 'x'.repeat(2000), body: 'B', author: 'A' },
      { title: TITLE_TOO_LONG },
    ],
    [
      'checks only the fields a PATCH gives',
      patch,
      { title: '', author: 'x'.repeat(31) },
      { title: 'Sorry, title is required', author: AUTHOR_TOO_LONG },
    ],
    [
      'refuses a PATCH value that is not text',
      patch,
      { body: 7 },
      { body: 'Sorry, body is required' },
    ],
  ] as const)('%s', async (_behaviour, send, payload, errors) => {
    const response = await send(payload)
    expect(response.statusCode).toBe(422)
    expect(response.json().errors).toEqual(errors)
  })

  it('accepts each field at its limit', async () => {
    const response = await post({
      title: 'x'.repeat(100),
      body: 'x'.repeat(500),
      author: 'x'.repeat(30),
    })
    expect(response.statusCode).toBe(201)
  })

  it.each([['[]'], ['"text"'], ['42'], ['null']])(
    'answers a body of %s like an empty post',
    async (body) => {
      const response = await post(body)
      expect(response.statusCode).toBe(422)
      expect(Object.keys(response.json().errors).sort()).toEqual(['author', 'body', 'title'])
    },
  )

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
    expectProblem(response, 404, 'Not Found')
  })
})

describe('server failures', () => {
  const SECRET = 'SQLITE_CORRUPT at /srv/secret/newswire.db line 42'

  class BrokenRepository extends JournaledNewsRepository implements NewsRepository {
    constructor() {
      super(new MemoryNewsStore())
    }

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
    ['GET', '/api/news'],
    ['GET', '/api/trash'],
    ['GET', '/api/news/some-id/revisions'],
    ['POST', '/api/news/some-id/restore'],
    ['POST', '/api/news/some-id/revisions/2/restore'],
  ] as const)('%s %s answers 503 without internals when the store throws', async (method, url) => {
    const broken = await memoryApp({ useCases: memoryUseCases(new BrokenRepository()) })
    const response = await broken.inject({ method, url })
    await broken.close()
    expectProblem(response, 503, 'Service Unavailable', {
      detail: 'The service is unavailable right now. Try again later.',
    })
    expect(response.body).not.toMatch(/SQLITE|secret/)
  })

  it('answers 500 without internals, and logs the error, when a route itself fails', async () => {
    const { response, logged } = await failedRead(new Error(SECRET))
    expectProblem(response, 500, 'Internal Server Error', {
      detail: 'Something went wrong on our side. Try again later.',
    })
    expect(response.body).not.toMatch(/SQLITE|stack/)
    expect(JSON.stringify(logged)).toContain(SECRET)
  })

  it('logs requests without their bodies', async () => {
    const { app: logged, log } = await appLoggingAt('info')
    await postNews(logged, {
      title: 'Private title',
      body: 'Private body',
      author: 'Private author',
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

describe('what the router refuses before any route runs', () => {
  it.each([
    ['a path parameter that is not valid percent-encoding', '/api/news/%E0%A4%A', 400],
    ['a path segment over the router’s length bound', `/api/news/${'x'.repeat(150)}`, 414],
  ])('answers %s with a problem that does not repeat the URL', async (_, url, status) => {
    const response = await app.inject(url)
    expect(response.statusCode).toBe(status)
    expect(response.headers['content-type']).toBe(PROBLEM_TYPE)
    expect(response.json()).toMatchObject({ type: 'about:blank', status })
    expect(response.body).not.toContain(url.slice('/api/news/'.length, 30))
  })
})

describe('server faults in the outbox', () => {
  it('answers 500 as a problem, logged once at error, only for a real fault of the server', async () => {
    const useCases = memoryUseCases()
    const secret = 'TypeError at /srv/outbox/mailer.ts line 7'
    vi.spyOn(useCases.sendContactMessage, 'execute').mockRejectedValue(new Error(secret))
    const { app: broken, log } = await appLoggingAt('error', useCases)
    const response = await sendForm(broken, contactForm())
    await broken.close()
    expect([response.statusCode, response.headers['content-type']]).toEqual([500, PROBLEM_TYPE])
    expect(response.body).not.toContain(secret)
    const failures = log.lines().filter((line) => line.msg === 'request failed')
    expect(failures).toHaveLength(1)
    expect(JSON.stringify(failures[0])).toContain(secret)
  })
})

describe('malformed forms to the outbox', () => {
  async function truncatedForm(): Promise<{ payload: Buffer; headers: Record<string, string> }> {
    const { payload, headers } = await multipart({ name: 'Ada', message: 'Hello' })
    return { payload: payload.subarray(0, Math.floor(payload.length / 2)), headers }
  }

  it.each([
    ['an empty body without a boundary', { 'content-type': 'multipart/form-data' }, ''],
    ['garbage without a boundary', { 'content-type': 'multipart/form-data' }, 'name=Ada'],
    ['an empty boundary', { 'content-type': 'multipart/form-data; boundary=' }, '--\r\n'],
    [
      'a boundary over 256 characters',
      { 'content-type': `multipart/form-data; boundary=${'b'.repeat(300)}` },
      'x',
    ],
    [
      'a body that never closes its part',
      { 'content-type': 'multipart/form-data; boundary=xyz' },
      '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda',
    ],
  ])(
    'answers %s with a 400 problem, logged at info without a stack',
    async (_, headers, payload) => {
      const { app, log } = await appLoggingAt('info')
      const response = await app.inject({
        method: 'POST',
        url: SEND_FORM,
        headers: { ...headers, origin: SITE_ORIGIN },
        payload,
      })
      await app.close()
      expect([response.statusCode, response.headers['content-type']]).toEqual([400, PROBLEM_TYPE])
      expect(response.json()).toMatchObject({ title: 'Bad Request', detail: MALFORMED_FORM_DETAIL })
      const lines = log.lines()
      expect(lines.find((line) => line.msg === 'malformed form')).toMatchObject({ level: 30 })
      expect(lines.filter((line) => Number(line.level) >= 40)).toEqual([])
      expect(JSON.stringify(lines)).not.toContain('"stack"')
    },
  )

  it('answers a form cut short in its middle with a 400 problem', async () => {
    const { payload, headers } = await truncatedForm()
    const response = await app.inject({
      method: 'POST',
      url: SEND_FORM,
      headers: { ...headers, origin: SITE_ORIGIN },
      payload,
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ status: 400, detail: MALFORMED_FORM_DETAIL })
  })
})

describe('a client that closes the connection before its answer', () => {
  const ABORT_LOGGED = 'client closed the connection before the answer'

  /** The log lines once one tells of the request's end (as an abort, or a failure), 3 s at most. */
  async function linesOnceLogged(log: ReturnType<typeof logCapture>) {
    const told = (line: Record<string, unknown>) =>
      line.msg === ABORT_LOGGED || Number(line.level) >= 50
    for (let waited = 0; waited < 3_000 && !log.lines().some(told); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return log.lines()
  }

  it('is logged at info, never at error, when it resets in the middle of a contact form', async () => {
    const log = logCapture()
    const listening = await memoryApp({ logger: { level: 'info', stream: log.stream } })
    try {
      await listening.listen({ port: 0, host: '127.0.0.1' })
      const { port } = listening.server.address() as AddressInfo
      const { payload, headers } = await multipart({ name: 'Ada', message: 'x'.repeat(4000) })
      const socket = connect({ host: '127.0.0.1', port })
      socket.on('error', () => undefined)
      await new Promise((resolve) => socket.once('connect', resolve))
      socket.write(
        `POST /api/v1.0/email/send-form HTTP/1.1\r\nhost: localhost\r\norigin: ${SITE_ORIGIN}\r\n` +
          `content-type: ${headers['content-type']}\r\ncontent-length: ${payload.length}\r\n\r\n`,
      )
      socket.write(payload.subarray(0, payload.length / 2))
      // Once the server is reading the form, the client resets the connection.
      await new Promise((resolve) => setTimeout(resolve, 200))
      socket.resetAndDestroy()

      const lines = await linesOnceLogged(log)
      expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([])
      expect(lines.find((line) => line.msg === ABORT_LOGGED)).toMatchObject({
        level: 30,
        code: expect.any(String),
      })
    } finally {
      await listening.close()
    }
  })

  it('does not hide a failure with a connection’s error code while the client waits', async () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
    const { response, logged } = await failedRead(reset)
    expect(response.statusCode).toBe(500)
    expect(logged).toMatchObject({ level: 50 })
  })
})

describeOnDatabases('hostile input answers the same on $name', (kind) => {
  let engine: ComposedServer
  let api: FastifyInstance
  let dispose: () => Promise<void>
  let existing: NewsItem

  beforeAll(async () => {
    const database = await kind.create()
    dispose = () => database.dispose()
    engine = await composeTestServer({ DATABASE_URL: database.url })
    api = engine.app
    existing = await createPostThroughApi(engine, 'Existing')
  })

  afterAll(async () => {
    await engine.close()
    await dispose()
  })

  const create = (payload: string | Buffer | object) =>
    api.inject({ method: 'POST', url: '/api/news', headers: JSON_HEADERS, payload })

  it.each([
    ['a NUL in the title', 'title', 'a\u0000b'],
    ['a BEL in the title', 'title', 'a\u0007b'],
    ['a line break in the author', 'author', 'Ada\nLovelace'],
    ['a NUL in the body', 'body', 'one\u0000two'],
    ['a C1 control in the body', 'body', 'one\u0085two'],
  ])('refuses %s with 422 and the field’s message, storing nothing', async (_, field, value) => {
    const fields = { [field]: value }
    const errors = { [field]: `Sorry, ${field} can't contain control characters` }
    const before = (await api.inject('/api/news?limit=100')).json<NewsItem[]>().length
    const response = await create({ title: 'T', body: 'B', author: 'A', ...fields })
    expect([response.statusCode, response.headers['content-type']]).toEqual([422, PROBLEM_TYPE])
    expect(response.json().errors).toEqual(errors)
    const edit = await editThroughApi(engine, existing._id, fields)
    expect(edit.statusCode).toBe(422)
    expect(edit.json().errors).toEqual(errors)
    expect((await api.inject('/api/news?limit=100')).json()).toHaveLength(before)
  })

  it('keeps tabs and line breaks in a body exactly', async () => {
    const body = 'First line\r\nSecond\tcolumn\nThird'
    const response = await create({ title: 'Lines', body, author: 'Ada' })
    expect(response.statusCode).toBe(201)
    const stored = await api.inject(`/api/news/${response.json<NewsItem>()._id}`)
    expect(stored.json<NewsItem>().body).toBe(body)
  })

  it('stores an unpaired surrogate as U+FFFD, and answers what it stored', async () => {
    const response = await create('{"title":"a\\ud800b","body":"\\udc00","author":"Ada"}')
    expect(response.statusCode).toBe(201)
    const created = response.json<NewsItem>()
    expect([created.title, created.body]).toEqual(['a\ufffdb', '\ufffd'])
    expect((await api.inject(`/api/news/${created._id}`)).json()).toEqual(created)
  })

  it('reads invalid UTF-8 in a JSON body as U+FFFD, as JSON.parse does', async () => {
    const payload = Buffer.concat([
      Buffer.from('{"title":"a'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('b","body":"B","author":"Ada"}'),
    ])
    const response = await create(payload)
    expect(response.statusCode).toBe(201)
    const created = response.json<NewsItem>()
    expect(created.title).toBe('a\ufffd\ufffdb')
    expect((await api.inject(`/api/news/${created._id}`)).json()).toEqual(created)
  })

  it('refuses a control character in a contact message in words, storing nothing', async () => {
    const outbox = new SqlOutboxMailer(engine.database)
    const before = await outbox.count()
    const form = contactForm({ name: 'Ada\u0007', message: 'Hello\u0000there' })
    const response = await sendForm(api, form)
    expect(response.statusCode).toBe(400)
    expect(response.body.split('\n').sort()).toEqual([
      "Sorry, message can't contain control characters",
      "Sorry, name can't contain control characters",
    ])
    expect(await outbox.count()).toBe(before)
  })

  it.each([
    ['the list', '/api/news'],
    ['the trash', '/api/trash'],
  ])('answers 400 to a cursor of %s outside the instants the engines store', async (_, path) => {
    for (const at of ['0000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z']) {
      const cursor = encodeCursor({ at, id: 'abc' })
      const response = await api.inject(`${path}?cursor=${cursor}`)
      expect([response.statusCode, response.headers['content-type']]).toEqual([400, PROBLEM_TYPE])
      expect(response.json().errors).toEqual({ cursor: 'Must be the cursor of a previous page' })
    }
    const latest = encodeCursor({ at: '9999-12-31T23:59:59.999Z', id: 'zzz' })
    expect((await api.inject(`${path}?cursor=${latest}`)).statusCode).toBe(200)
  })

  it('answers 400 to a history cursor past the highest revision the engines store', async () => {
    const cursor = encodeRevisionCursor(MAX_REVISION + 1)
    const response = await api.inject(`/api/news/${existing._id}/revisions?cursor=${cursor}`)
    expect(response.statusCode).toBe(400)
    expect(response.json().errors).toEqual({ cursor: 'Must be the cursor of a previous page' })
  })

  it.each([[String(MAX_REVISION + 1)], ['9999999999999999']])(
    'answers 404 to a restore of revision %s',
    async (revision) => {
      const response = await api.inject({
        method: 'POST',
        url: `/api/news/${existing._id}/revisions/${revision}/restore`,
      })
      expect([response.statusCode, response.headers['content-type']]).toEqual([404, PROBLEM_TYPE])
    },
  )
})
