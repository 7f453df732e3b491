import { sql } from 'kysely'
import type { ComposedServer } from '@/composition/server/server.composition'
import {
  composeTestServer,
  JSON_HEADERS,
  logCapture,
  removeTempDirs,
  TEST_DATABASES,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from './server-fixture'

if (TEST_POSTGRES_URL === undefined) {
  console.warn('shared rate limit on PostgreSQL: SKIPPED because TEST_POSTGRES_URL is not set')
}

afterAll(removeTempDirs)

function createPost(server: ComposedServer, headers: Record<string, string> = {}) {
  return server.app.inject({
    method: 'POST',
    url: '/api/news',
    headers: { ...JSON_HEADERS, ...headers },
    payload: { title: 'T', body: 'B', author: 'A' },
  })
}

async function statusesOf(
  server: ComposedServer,
  forwardedFor: readonly string[],
  remoteAddress?: string,
): Promise<number[]> {
  const statuses: number[] = []
  for (const address of forwardedFor) {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/news',
      headers: { ...JSON_HEADERS, 'x-forwarded-for': address },
      payload: { title: 'T', body: 'B', author: 'A' },
      remoteAddress,
    })
    statuses.push(response.statusCode)
  }
  return statuses
}

describe.each(TEST_DATABASES)('the write limit shared by two servers on $name', (kind) => {
  let database: TestDatabase
  let first: ComposedServer
  let second: ComposedServer

  beforeAll(async () => {
    database = await kind.create()
    const env = { DATABASE_URL: database.url, WRITE_RATE_LIMIT: '3' }
    first = await composeTestServer(env)
    second = await composeTestServer(env)
  })
  afterAll(async () => {
    await first?.close()
    await second?.close()
    await database?.dispose()
  })

  it('draws every server’s writes from one budget per client', async () => {
    expect((await createPost(first)).statusCode).toBe(201)
    expect((await createPost(first)).statusCode).toBe(201)
    const third = await createPost(second)
    expect(third.statusCode).toBe(201)
    expect(third.headers['x-ratelimit-remaining']).toBe('0')

    const refused = await createPost(second)
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(refused.json()).toMatchObject({ status: 429, title: 'Too Many Requests' })
    expect((await createPost(first)).statusCode).toBe(429)
  })

  it('keeps another client’s budget apart on every server', async () => {
    const other = await first.app.inject({
      method: 'POST',
      url: '/api/news',
      headers: JSON_HEADERS,
      payload: { title: 'T', body: 'B', author: 'A' },
      remoteAddress: '192.0.2.7',
    })
    expect(other.statusCode).toBe(201)
    expect(other.headers['x-ratelimit-remaining']).toBe('2')
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
