import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { join } from 'node:path'
import type { ComposedServer } from '@/composition/server/server.composition'
import { composeTestServer, tempDir, describeOnDatabases } from './server-fixture'
import { listening, postsThroughTheStore, useTwoListening } from './support/live-servers'
import {
  closeReaders,
  openReady,
  openStream,
  waitUntil,
  type StreamReader,
} from './support/stream-reader'

const HEARTBEAT_MS = 150

afterEach(closeReaders)

/** An answer to GET /api/events or any GET, or 0 when the server closed the connection instead. */
interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
  close(): void
}

/**
 * GET `path` on a connection of its own from `from`; resolves at the answer's head (a stream
 * stays open until closed) with its first chunk, or with status 0 when the server drops it.
 */
function answerTo(base: string, path: string, from: string): Promise<Answer> {
  return new Promise((resolve) => {
    const outgoing = httpRequest(new URL(path, base), {
      agent: false,
      localAddress: from,
      headers: { accept: path.startsWith('/api/events') ? 'text/event-stream' : '*/*' },
    })
    const close = () => outgoing.destroy()
    outgoing.on('error', () => resolve({ status: 0, headers: {}, body: '', close }))
    outgoing.on('response', (response) => {
      response.setEncoding('utf8')
      response.once('data', (chunk: string) =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: chunk,
          close,
        }),
      )
      response.on('error', () => undefined)
    })
    outgoing.end()
  })
}

describe('the live streams of one server and the connections requests need', () => {
  let server: ComposedServer
  const answers: Answer[] = []

  afterEach(async () => {
    for (const answer of answers.splice(0)) answer.close()
    await server.close()
  })

  it('serves at most MAX_STREAMS streams, answers 503 with Retry-After past it, and keeps the other connections for requests', async () => {
    server = await composeTestServer(
      {
        DATABASE_URL: `sqlite:${join(tempDir('newswire-stream-limits-'), 'news.db')}`,
        MAX_CONNECTIONS: '60',
        MAX_STREAMS: '30',
      },
      { events: { heartbeatMs: HEARTBEAT_MS } },
    )
    const base = await listening(server)
    // Four addresses, each within its cap of 20 streams: more than MAX_CONNECTIONS together.
    const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']
    for (const from of addresses) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, () => answerTo(base, '/api/events', from)),
        )),
      )
    }
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(30)
    expect(statuses.filter((status) => status === 503)).toHaveLength(50)
    const refused = answers.find((answer) => answer.status === 503)
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0)
    expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({ status: 503 })

    // Visitors still get in, several at once, each on a connection of its own.
    const visits = await Promise.all(
      Array.from({ length: 20 }, () => answerTo(base, '/api/news', '127.0.0.9')),
    )
    answers.push(...visits)
    expect(visits.map((visit) => visit.status)).toEqual(visits.map(() => 200))
  })
})

describeOnDatabases('resuming the live stream on two servers on one $name database', (kind) => {
  const RECONNECTS = 4
  const servers = useTwoListening(kind, {
    heartbeatMs: HEARTBEAT_MS,
    reconnectsPerMinute: RECONNECTS,
  })
  const { a } = servers

  it('replays at most 100 missed changes, and tells a reader further behind to reset instead', async () => {
    const before = await postsThroughTheStore(a, 101)
    const latest = before + 101
    const replayed = await openReady(servers.baseA, { since: String(before + 1) })
    expect(replayed.reader.messages).toHaveLength(101)
    const tooFar = await openReady(servers.baseB, { since: String(before) })
    expect(tooFar.reader.messages).toEqual([
      { event: 'reset', id: String(latest), data: `{"seq":${latest}}` },
      { event: 'ready', id: String(latest), data: `{"seq":${latest}}` },
    ])
  })

  it('counts the streams a client closed in the last minute across servers, and answers 429 with Retry-After past its reconnects', async () => {
    const closed: StreamReader[] = []
    for (let index = 0; index < RECONNECTS; index += 1) {
      const { reader } = await openReady(index % 2 === 0 ? servers.baseA : servers.baseB)
      reader.close()
      closed.push(reader)
    }
    // Each server records a close once it has seen it; give them the time to.
    await waitUntil(
      () => closed.every((reader) => reader.isEnded()),
      () => 'the closes',
    )
    const recorded = async () =>
      Number(
        (
          await a.database.db
            .selectFrom('event_stream_lease')
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirst()
        )?.count,
      )
    for (let waited = 0; (await recorded()) < RECONNECTS && waited < 5_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    for (const base of [servers.baseA, servers.baseB]) {
      const refused = await openStream(base)
      expect(refused.status).toBe(429)
      await refused.ended
      const retryAfter = Number(refused.headers['retry-after'])
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      expect(JSON.parse(refused.text())).toMatchObject({ status: 429 })
    }
    // Another address has a budget of its own.
    expect((await openReady(servers.baseB, { from: '127.0.0.2' })).reader.status).toBe(200)
  }, 20_000)
})
