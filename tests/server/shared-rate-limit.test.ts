import { sql } from 'kysely'
import type { ComposedServer } from '@/composition/server/server.composition'
import {
  composeTestServer,
  JSON_HEADERS,
  logCapture,
  testConfig,
  type TestDatabaseKind,
  describeOnDatabases,
  useTwoServers,
  memoryApp,
  postNews,
  contactForm,
  sendForm,
} from './server-fixture'

function createPost(server: ComposedServer, headers: Record<string, string> = {}) {
  return postNews(server.app, undefined, { headers })
}

async function statusesOf(
  server: ComposedServer,
  forwardedFor: readonly string[],
  remoteAddress?: string,
): Promise<number[]> {
  const statuses: number[] = []
  for (const address of forwardedFor) {
    const response = await postNews(server.app, undefined, {
      headers: { 'x-forwarded-for': address },
      remoteAddress,
    })
    statuses.push(response.statusCode)
  }
  return statuses
}

/** Two servers on one fresh database of `kind` with this write limit, for the suite. */
function twoServers(kind: TestDatabaseKind, writeRateLimit: number) {
  const { a, b } = useTwoServers(kind, { env: { WRITE_RATE_LIMIT: String(writeRateLimit) } })
  return { first: a, second: b }
}

describeOnDatabases('the write limit shared by two servers on $name', (kind) => {
  const servers = twoServers(kind, 3)

  it('draws every server’s writes from one budget per client', async () => {
    expect((await createPost(servers.first)).statusCode).toBe(201)
    expect((await createPost(servers.first)).statusCode).toBe(201)
    const third = await createPost(servers.second)
    expect(third.statusCode).toBe(201)
    expect(third.headers['x-ratelimit-remaining']).toBe('0')

    const refused = await createPost(servers.second)
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(refused.json()).toMatchObject({ status: 429, title: 'Too Many Requests' })
    expect((await createPost(servers.first)).statusCode).toBe(429)
  })

  it('draws writes to every route, on every server, from the one budget (groupId)', async () => {
    const remoteAddress = '198.51.100.23'
    const write = (server: ComposedServer, method: 'POST' | 'PATCH' | 'DELETE', url: string) =>
      server.app.inject({
        method,
        url,
        ...(method === 'DELETE'
          ? {}
          : { headers: JSON_HEADERS, payload: { title: 'T', body: 'B', author: 'A' } }),
        remoteAddress,
      })
    const created = await write(servers.first, 'POST', '/api/news')
    expect(created.statusCode).toBe(201)
    const url = `/api/news/${created.json<{ _id: string }>()._id}`
    const edited = await write(servers.second, 'PATCH', url)
    expect(edited.statusCode).toBe(200)
    expect(edited.headers['x-ratelimit-remaining']).toBe('1')
    expect((await write(servers.first, 'DELETE', url)).statusCode).toBe(204)

    const restore = await servers.second.app.inject({
      method: 'POST',
      url: `${url}/restore`,
      remoteAddress,
    })
    expect(restore.statusCode).toBe(429)
    const mail = await sendForm(servers.first.app, contactForm(), { remoteAddress })
    expect(mail.statusCode).toBe(429)
  })

  it('keeps another client’s budget apart on every server', async () => {
    const other = await postNews(servers.first.app, undefined, { remoteAddress: '192.0.2.7' })
    expect(other.statusCode).toBe(201)
    expect(other.headers['x-ratelimit-remaining']).toBe('2')
  })
})

describeOnDatabases('which writes count against the limit, on $name', (kind) => {
  const servers = twoServers(kind, 2)
  let client = 0

  /** Requests from a new client address each time, so that each test starts a fresh budget. */
  const newClient = () => `198.51.100.${++client}`
  const send = (
    server: ComposedServer,
    remoteAddress: string,
    method: 'POST' | 'DELETE',
    url: string,
    payload?: string,
    contentType = 'application/json',
  ) =>
    server.app.inject({
      method,
      url,
      remoteAddress,
      ...(payload === undefined ? {} : { payload, headers: { 'content-type': contentType } }),
    })
  const goodPost = JSON.stringify({ title: 'T', body: 'B', author: 'A' })

  it('spends no budget on a missing post, an invalid post or a wrong media type', async () => {
    const address = newClient()
    const refused = [
      await send(servers.first, address, 'DELETE', '/api/news/no-such-post'),
      await send(servers.second, address, 'POST', '/api/news', JSON.stringify({ title: '' })),
      await send(servers.first, address, 'POST', '/api/news', goodPost, 'text/plain'),
      await send(servers.second, address, 'DELETE', '/api/news/no-such-post'),
    ]
    expect(refused.map((response) => response.statusCode)).toEqual([404, 422, 415, 404])

    const accepted = [
      await send(servers.first, address, 'POST', '/api/news', goodPost),
      await send(servers.second, address, 'POST', '/api/news', goodPost),
    ]
    expect(accepted.map((response) => response.statusCode)).toEqual([201, 201])
    expect(accepted.map((response) => response.headers['x-ratelimit-remaining'])).toEqual([
      '1',
      '0',
    ])
  })

  it('refuses every write once the accepted ones spent the budget, with Retry-After', async () => {
    const address = newClient()
    expect((await send(servers.first, address, 'POST', '/api/news', goodPost)).statusCode).toBe(201)
    expect((await send(servers.second, address, 'POST', '/api/news', goodPost)).statusCode).toBe(
      201,
    )

    for (const refused of [
      await send(servers.first, address, 'POST', '/api/news', goodPost),
      await send(servers.second, address, 'DELETE', '/api/news/no-such-post'),
    ]) {
      expect(refused.statusCode).toBe(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    }
  })

  it('counts a contact message the outbox stored, not one it refused', async () => {
    const address = newClient()
    const mail = async (message: string) => {
      return sendForm(servers.first.app, contactForm({ message }), { remoteAddress: address })
    }
    const refused = await mail('')
    expect(refused.statusCode).toBe(400)
    expect(refused.headers['x-ratelimit-remaining']).toBe('2')
    const stored = await mail('Hello')
    expect(stored.statusCode).toBe(200)
    expect(stored.headers['x-ratelimit-remaining']).toBe('1')
  })
})

describe('TRUST_PROXY', () => {
  const servers: ComposedServer[] = []
  const serverWith = async (trustProxy: string | undefined, limit: number) => {
    const server = await composeTestServer({
      WRITE_RATE_LIMIT: String(limit),
      ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }),
    })
    servers.push(server)
    return server
  }
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
  })

  it('is off by default: X-Forwarded-For cannot dodge the limit', async () => {
    const server = await serverWith(undefined, 2)
    expect(await statusesOf(server, ['203.0.113.1', '203.0.113.2', '203.0.113.3'])).toEqual([
      201, 201, 429,
    ])
  })

  it('when off, ignores X-Forwarded-For for the client address as well', async () => {
    const server = await serverWith('off', 1)
    expect(await statusesOf(server, ['203.0.113.1', '203.0.113.2'])).toEqual([201, 429])
  })

  it('with a hop count, gives each client behind the proxy its own budget', async () => {
    const server = await serverWith('1', 1)
    expect(await statusesOf(server, ['203.0.113.1', '203.0.113.2', '203.0.113.1'])).toEqual([
      201, 201, 429,
    ])
  })

  it('with a hop count, believes only the address the proxy added', async () => {
    const server = await serverWith('1', 1)
    // A client's own X-Forwarded-For entry comes first; the proxy appends the real address.
    expect(
      await statusesOf(server, ['198.51.100.1, 203.0.113.1', '198.51.100.2, 203.0.113.1']),
    ).toEqual([201, 429])
  })

  it('with addresses, believes X-Forwarded-For only from those proxies', async () => {
    const server = await serverWith('127.0.0.1, 10.0.0.0/8', 1)
    expect(await statusesOf(server, ['203.0.113.1', '203.0.113.2'], '10.1.2.3')).toEqual([201, 201])
    // The same header straight from a client outside the list counts against that client.
    expect(await statusesOf(server, ['203.0.113.8', '203.0.113.9'], '192.0.2.50')).toEqual([
      201, 429,
    ])
  })

  it('refuses a bad value at start, before any server exists', async () => {
    await expect(serverWith('everyone', 1)).rejects.toThrow(
      /^Invalid configuration:\n {2}- TRUST_PROXY must be off, a hop count/,
    )
  })
})

describe('an app with a write limit or a search budget', () => {
  it.each([
    ['write', 'WRITE_RATE_LIMIT'],
    ['search', 'SEARCH_RATE_LIMIT'],
  ])(
    'refuses to start with a %s limit but no shared place to count in, rather than count per process',
    async (limit, setting) => {
      await expect(memoryApp({ config: testConfig({ [setting]: '3' }) })).rejects.toThrow(
        `A ${limit} rate limit needs a rateLimitCounter to count in.`,
      )
    },
  )
})

describe('when the rate limit cannot count', () => {
  it('lets the write through (fail open) and logs why, never a 5xx', async () => {
    const log = logCapture()
    const server = await composeTestServer(
      { WRITE_RATE_LIMIT: '1' },
      { logger: { level: 'warn', stream: log.stream } },
    )
    try {
      // The count's table is gone while the news tables still work: only the limiter fails.
      await sql`drop table rate_limit`.execute(server.database.db)
      const statuses = [
        (await createPost(server)).statusCode,
        (await createPost(server)).statusCode,
      ]
      expect(statuses).toEqual([201, 201])
      const messages = log.lines().map((line) => line.msg)
      expect(messages).toContain('write not counted against the rate limit')
      expect(messages).toContain('storage failed')
    } finally {
      await server.close()
    }
  })
})
