import { get } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import type { ComposedServer } from '@/composition/server/server.composition'
import { CONNECTIONS_CHECKING_INTERVAL_MS } from '@/server/plugins/connection-limits'
import { composeTestServer, tempDir } from './server-fixture'

/** Short timeouts, so that the attack is over in seconds. */
const REQUEST_TIMEOUT_S = 2
const HEADERS_TIMEOUT_S = 1
const KEEP_ALIVE_TIMEOUT_S = 1
const PER_ADDRESS = 40
/** Time for the sockets to close and the timers to fire, on a busy machine. */
const SLACK_MS = 700

const ATTACKER = '127.0.0.1'
const VISITOR = '127.0.0.2'

async function listeningServer(env: Record<string, string>): Promise<ComposedServer> {
  const server = await composeTestServer({
    DATABASE_URL: `sqlite:${join(tempDir('newswire-slow-'), 'news.db')}`,
    REQUEST_TIMEOUT: String(REQUEST_TIMEOUT_S),
    HEADERS_TIMEOUT: String(HEADERS_TIMEOUT_S),
    KEEP_ALIVE_TIMEOUT: String(KEEP_ALIVE_TIMEOUT_S),
    ...env,
  })
  await server.app.listen({ port: 0, host: '127.0.0.1' })
  return server
}

function portOf(server: ComposedServer): number {
  return (server.app.server.address() as AddressInfo).port
}

interface SlowClient {
  /** What the server answered before it closed the connection. */
  readonly answer: () => string
  /** Milliseconds from the connection to its close. */
  readonly closed: Promise<number>
}

/**
 * A client that connects from `localAddress`, sends `head` at once, then `drip` one byte every
 * `everyMs` for as long as the server keeps the connection.
 */
function slowClient(
  port: number,
  localAddress: string,
  head: string,
  drip: string,
  everyMs: number,
): SlowClient {
  const socket: Socket = connect({ host: '127.0.0.1', port, localAddress })
  const started = Date.now()
  let answer = ''
  let sent = 0
  let timer: NodeJS.Timeout | undefined
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (answer += chunk))
  socket.on('error', () => undefined)
  socket.on('connect', () => {
    if (head !== '') socket.write(head)
    timer = setInterval(() => {
      if (socket.writable) socket.write(drip.charAt(sent++ % drip.length))
    }, everyMs)
  })
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer)
      resolve(Date.now() - started)
    }),
  )
  return { answer: () => answer, closed }
}

/** GET /api/news from `localAddress` on a new connection: its status and time in ms. */
function visit(port: number, localAddress: string): Promise<{ status: number; ms: number }> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const request = get(
      { host: '127.0.0.1', port, path: '/api/news', localAddress, agent: false },
      (response) => {
        response.resume()
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, ms: Date.now() - started }),
        )
      },
    )
    request.on('error', reject)
  })
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const SLOW_BODY_HEAD =
  'POST /api/news HTTP/1.1\r\nHost: news.test\r\nContent-Type: application/json\r\n' +
  'Content-Length: 1000\r\n\r\n'
const SLOW_HEADERS = 'GET /api/news HTTP/1.1\r\nHost: news.test\r\nX-Padding: ' + 'a'.repeat(500)

describe('slow clients on a listening server', () => {
  let server: ComposedServer
  let port: number

  beforeAll(async () => {
    server = await listeningServer({
      MAX_CONNECTIONS: '200',
      MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
    })
    port = portOf(server)
  })
  afterAll(() => server?.close())

  it('cuts off dripped bodies and dripped headers within their timeouts while another visitor is served', async () => {
    const bodies = Array.from({ length: PER_ADDRESS / 2 }, () =>
      slowClient(port, ATTACKER, SLOW_BODY_HEAD, '{', 1000),
    )
    const headers = Array.from({ length: PER_ADDRESS / 2 }, () =>
      slowClient(port, ATTACKER, '', SLOW_HEADERS, 100),
    )
    await delay(500)

    const visitor = await visit(port, VISITOR)
    expect(visitor.status).toBe(200)
    expect(visitor.ms).toBeLessThan(500)

    const bodyTimes = await Promise.all(bodies.map((client) => client.closed))
    const headerTimes = await Promise.all(headers.map((client) => client.closed))
    const check = CONNECTIONS_CHECKING_INTERVAL_MS
    expect(Math.max(...bodyTimes)).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + check + SLACK_MS)
    expect(Math.min(...bodyTimes)).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S * 1000 - 50)
    expect(Math.max(...headerTimes)).toBeLessThan(HEADERS_TIMEOUT_S * 1000 + check + SLACK_MS)
    for (const client of [...bodies, ...headers]) {
      expect(client.answer()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
      expect(client.answer()).toContain('application/problem+json')
    }
  }, 15_000)

  it('closes the connections one address opens past its cap at once, and serves another address', async () => {
    const held = Array.from({ length: PER_ADDRESS + 10 }, () =>
      slowClient(port, ATTACKER, SLOW_BODY_HEAD, '{', 1000),
    )
    const firstHalfSecond = await Promise.all(
      held.map((client) => Promise.race([client.closed, delay(500).then(() => 'open')])),
    )
    expect(firstHalfSecond.filter((state) => state !== 'open')).toHaveLength(10)

    const visitor = await visit(port, VISITOR)
    expect(visitor.status).toBe(200)
    await Promise.all(held.map((client) => client.closed))
  }, 15_000)

  // Node announces the timeout to the client and closes a second after it (its own margin), so
  // that a client never sends a request on a connection the server is closing.
  it('announces KEEP_ALIVE_TIMEOUT and lets an idle connection go a second after it', async () => {
    const client = slowClient(
      port,
      VISITOR,
      'GET /api/health HTTP/1.1\r\nHost: news.test\r\n\r\n',
      '',
      60_000,
    )
    const ms = await client.closed
    expect(client.answer()).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(client.answer()).toContain(`Keep-Alive: timeout=${KEEP_ALIVE_TIMEOUT_S}\r\n`)
    expect(ms).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_S * 1000)
    expect(ms).toBeLessThan(KEEP_ALIVE_TIMEOUT_S * 1000 + 1000 + SLACK_MS)
  }, 10_000)
})

describe('MAX_CONNECTIONS', () => {
  let server: ComposedServer
  afterAll(() => server?.close())

  it('closes every connection past the total cap at once, whatever its address', async () => {
    server = await listeningServer({ MAX_CONNECTIONS: '3', MAX_CONNECTIONS_PER_ADDRESS: '0' })
    const port = portOf(server)
    const held = ['127.0.0.3', '127.0.0.4', '127.0.0.5'].map((address) =>
      slowClient(port, address, SLOW_BODY_HEAD, '{', 1000),
    )
    await delay(200)
    const extra = slowClient(port, VISITOR, SLOW_BODY_HEAD, '{', 1000)
    expect(await Promise.race([extra.closed, delay(500).then(() => 'open')])).not.toBe('open')
    expect(extra.answer()).toBe('')
    await Promise.all(held.map((client) => client.closed))
  }, 10_000)
})
