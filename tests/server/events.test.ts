import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { EventSourceMessage } from 'eventsource-parser'
import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsItem } from '@/domain/news-item.entity'
import { MAX_REPLAY } from '@/application/change-feed'
import { TOKENS } from '@/composition/server/server.tokens'
import { ChangeBatch, EVENT_STREAM_DEFAULTS, EventStream } from '@/server/services/event-stream'
import { BAD_RESUME_POINT, STREAM_RETRY_AFTER_S } from '@/server/routes/events.routes'
import {
  composeTestServer,
  createPostThroughApi,
  JSON_HEADERS,
  tempDir,
  describeOnDatabases,
} from './server-fixture'
import { startServerProcess, type ServerProcess } from './server-process'
import { listening, postsThroughTheStore, useTwoListening } from './support/live-servers'
import {
  changeOf,
  closeReaders,
  openReady,
  openStream,
  PATIENCE_MS,
  waitUntil,
  type StreamReader,
} from './support/stream-reader'

/** Short, so that a test sees several heartbeats in a second. */
const HEARTBEAT_MS = 150

afterEach(closeReaders)

/**
 * Two servers on one database, as behind a load balancer: a reader on A is told of every
 * change made through B, however far behind it comes back.
 */
describeOnDatabases('the live stream, two servers on one $name database', (kind) => {
  const servers = useTwoListening(kind, { heartbeatMs: HEARTBEAT_MS })
  const { a, b } = servers

  /** Makes a change through B's API, as another visitor would. */
  async function onB(method: string, url: string, payload?: object): Promise<void> {
    const response = await b.app.inject({
      method: method as 'POST',
      url,
      ...(payload === undefined ? {} : { headers: JSON_HEADERS, payload }),
    })
    expect(response.statusCode, `${method} ${url}`).toBeLessThan(300)
  }

  /** Three posts created through B; answers them. */
  async function threePostsOnB(): Promise<NewsItem[]> {
    const posts: NewsItem[] = []
    for (const title of ['One', 'Two', 'Three']) posts.push(await createPostThroughApi(b, title))
    return posts
  }

  it('sends ready first, at the current version, with a new reader’s stream headers', async () => {
    await createPostThroughApi(b, 'Already there')
    const reader = await openStream(servers.baseA)
    expect(reader.status).toBe(200)
    expect(reader.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(reader.headers['cache-control']).toBe('no-store')
    expect(reader.headers['x-accel-buffering']).toBe('no')
    const [ready] = await reader.messagesUpTo(1)
    const version = await a.container.get(TOKENS.changeSignal).version()
    expect(ready).toEqual({ event: 'ready', id: String(version), data: `{"seq":${version}}` })
  })

  it('tells a reader on A of each create, edit, delete, restore and history restore made through B', async () => {
    const { reader, seq } = await openReady(servers.baseA)
    const item = await createPostThroughApi(b, 'Harbour reopens')
    await onB('PATCH', `/api/news/${item._id}`, { title: 'Harbour reopens at last' })
    await onB('DELETE', `/api/news/${item._id}`)
    await onB('POST', `/api/news/${item._id}/restore`)
    await onB('POST', `/api/news/${item._id}/revisions/1/restore`)

    const changes = (await reader.messagesUpTo(6)).slice(1).map(changeOf)
    expect(changes.map(({ id, kind, revision }) => [id, kind, revision])).toEqual([
      [item._id, 'created', 1],
      [item._id, 'edited', 2],
      [item._id, 'deleted', 3],
      [item._id, 'restored', 4],
      // A version brought back from the history is an edit to a reader.
      [item._id, 'edited', 5],
    ])
    expect(changes.map((change) => change.seq)).toEqual([1, 2, 3, 4, 5].map((n) => seq + n))
    for (const change of changes) expect(Date.parse(change.at)).not.toBeNaN()
  })

  it('replays exactly the changes missed since a Last-Event-ID, then ready', async () => {
    const first = await openReady(servers.baseA)
    first.reader.close()
    const posts = await threePostsOnB()
    const { reader, seq } = await openReady(servers.baseA, { lastEventId: String(first.seq) })
    const messages = reader.messages
    expect(messages.map((message) => message.event)).toEqual([
      'change',
      'change',
      'change',
      'ready',
    ])
    expect(messages.slice(0, 3).map((message) => changeOf(message).id)).toEqual(
      posts.map((post) => post._id),
    )
    expect(seq).toBe(first.seq + 3)
  })

  it('replays from ?since= as from Last-Event-ID, and nothing to a reader that missed nothing', async () => {
    const { seq: before } = await openReady(servers.baseA)
    await threePostsOnB()
    const fromMiddle = await openReady(servers.baseB, { since: String(before + 1) })
    expect(fromMiddle.reader.messages.map((message) => message.event)).toEqual([
      'change',
      'change',
      'ready',
    ])
    expect(changeOf(fromMiddle.reader.messages[0] as EventSourceMessage).seq).toBe(before + 2)
    const current = await openReady(servers.baseA, { since: String(fromMiddle.seq) })
    expect(current.reader.messages.map((message) => message.event)).toEqual(['ready'])
    // Then changes follow the replay as they are made, each once.
    await createPostThroughApi(b, 'Four')
    const [, , , fourth] = await fromMiddle.reader.messagesUpTo(4)
    expect(changeOf(fourth as EventSourceMessage).seq).toBe(fromMiddle.seq + 1)
  })

  it(`replays ${MAX_REPLAY} missed changes, and tells a reader further behind to reset`, async () => {
    const before = await postsThroughTheStore(a, MAX_REPLAY + 1)
    const latest = before + MAX_REPLAY + 1
    const behind = await openReady(servers.baseA, { since: String(before + 1) })
    expect(behind.reader.messages).toHaveLength(MAX_REPLAY + 1)
    expect(behind.seq).toBe(latest)
    const tooFar = await openReady(servers.baseA, { since: String(before) })
    expect(tooFar.reader.messages).toEqual([
      { event: 'reset', id: String(latest), data: `{"seq":${latest}}` },
      { event: 'ready', id: String(latest), data: `{"seq":${latest}}` },
    ])
  }, 30_000)

  it('tells a reader to reset when it comes back after the log was purged, or from a version the site never reached', async () => {
    const { seq } = await openReady(servers.baseA)
    await threePostsOnB()
    const store = b.container.get(TOKENS.newsStore)
    const epoch = new Date(0).toISOString()
    await store.purge({
      trashedBefore: epoch,
      keysBefore: epoch,
      changesBefore: new Date(Date.now() + 60_000).toISOString(),
    })
    const latest = await b.container.get(TOKENS.changeLog).version()
    for (const since of [String(seq), String(latest + 1), '9007199254740991']) {
      const { reader } = await openReady(servers.baseA, { since })
      expect(reader.messages.map((message) => [message.event, message.id])).toEqual([
        ['reset', String(latest)],
        ['ready', String(latest)],
      ])
    }
  })

  it('sends a heartbeat comment at the interval it is given', async () => {
    const { reader } = await openReady(servers.baseA)
    await waitUntil(
      () => reader.comments.length >= 3,
      () => `three heartbeats, got ${reader.comments.length}`,
    )
    expect(new Set(reader.comments)).toEqual(new Set(['heartbeat']))
  })

  it.each([
    ['since', 'abc'],
    ['since', '-1'],
    ['since', '1.5'],
    ['since', '1e3'],
    ['since', ' 7'],
    ['since', ''],
    ['since', '9007199254740992'],
    ['since', '12345678901234567'],
    ['Last-Event-ID', 'x'],
    ['Last-Event-ID', '0x10'],
    ['Last-Event-ID', '10000000000000000'],
  ])('answers 400, a problem, to a malformed resume point (%s %j)', async (where, value) => {
    const reader = await openStream(
      servers.baseA,
      where === 'since' ? { since: value } : { lastEventId: value },
    )
    await reader.ended
    expect(reader.status).toBe(400)
    expect(reader.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(JSON.parse(reader.text())).toMatchObject({ status: 400, detail: BAD_RESUME_POINT })
  })

  it(`lets one address hold ${EVENT_STREAM_DEFAULTS.perAddress} streams across both servers, answers 429 past that, and frees a place when one closes`, async () => {
    const cap = EVENT_STREAM_DEFAULTS.perAddress
    const open: StreamReader[] = []
    for (let index = 0; index < cap; index += 1) {
      open.push((await openReady(index % 2 === 0 ? servers.baseA : servers.baseB)).reader)
    }
    for (const base of [servers.baseA, servers.baseB]) {
      const refused = await openStream(base)
      await refused.ended
      expect(refused.status).toBe(429)
      expect(refused.headers['retry-after']).toBe(String(STREAM_RETRY_AFTER_S))
      expect(JSON.parse(refused.text())).toMatchObject({ status: 429 })
    }
    // Another address has its own places.
    expect((await openReady(servers.baseB, { from: '127.0.0.2' })).reader.status).toBe(200)

    // Closing one on B gives its place back, to be taken on A.
    open[1]?.close()
    let reopened: StreamReader | undefined
    const deadline = Date.now() + PATIENCE_MS
    while (reopened?.status !== 200 && Date.now() < deadline) {
      reopened = await openStream(servers.baseA)
      if (reopened.status !== 200) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(reopened?.status).toBe(200)
    expect((await openStream(servers.baseA)).status).toBe(429)
  })
})

describe('the live stream on one server', () => {
  async function server(env: Record<string, string> = {}, maxBufferedBytes?: number) {
    const composed = await composeTestServer(
      { DATABASE_URL: `sqlite:${join(tempDir('newswire-events-'), 'news.db')}`, ...env },
      { events: { heartbeatMs: HEARTBEAT_MS, ...(maxBufferedBytes ? { maxBufferedBytes } : {}) } },
    )
    return { composed, base: await listening(composed) }
  }

  it('watches again for a stream opened after every other one closed', async () => {
    const { composed, base } = await server()
    try {
      for (let round = 1; round <= 3; round += 1) {
        const { reader } = await openReady(base)
        const item = await createPostThroughApi(composed, `Round ${round}`)
        await waitUntil(
          () => reader.messages.some((message) => message.data.includes(item._id)),
          () => `round ${round}'s change`,
        )
        reader.close()
        await reader.ended
        // Long enough for the server to see the close and stop watching.
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    } finally {
      await composed.close()
    }
  })

  it('ends every stream at once when the server closes, so that the close is not held up', async () => {
    const { composed, base } = await server()
    const streams = await Promise.all([1, 2, 3].map(() => openReady(base)))
    const started = Date.now()
    await composed.close()
    expect(Date.now() - started).toBeLessThan(1_500)
    await Promise.all(streams.map(({ reader }) => reader.ended))
    for (const { reader } of streams) expect(reader.isEnded()).toBe(true)
  })

  it('is never compressed, outlives the request and keep-alive timeouts, and leaves the list’s cache and ETag alone', async () => {
    const { composed, base } = await server({
      REQUEST_TIMEOUT: '1',
      HEADERS_TIMEOUT: '1',
      KEEP_ALIVE_TIMEOUT: '1',
    })
    try {
      for (let index = 0; index < 30; index += 1) {
        await createPostThroughApi(composed, `A post with a title long enough to compress ${index}`)
      }
      const list = async () =>
        composed.app.inject({ url: '/api/news', headers: { 'accept-encoding': 'br' } })
      const before = await list()
      const { reader } = await openReady(base, { headers: { 'accept-encoding': 'br, gzip' } })
      expect(reader.headers['content-encoding']).toBeUndefined()
      // Past the request timeout, and its sweep, the stream is still open and still told.
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      expect(reader.isEnded()).toBe(false)
      const item = await createPostThroughApi(composed, 'Still listening')
      await waitUntil(
        () => reader.messages.some((message) => message.data.includes(item._id)),
        () => `the change of ${item._id}`,
      )
      const after = await list()
      expect(after.headers['content-encoding']).toBe('br')
      expect(after.headers.etag).not.toBe(before.headers.etag)
      const again = await list()
      expect(again.headers.etag).toBe(after.headers.etag)
      expect((await composed.app.inject(`/api/news?limit=${DEFAULT_PAGE_SIZE}`)).statusCode).toBe(
        200,
      )
    } finally {
      await composed.close()
    }
  }, 15_000)
})

describe('a reader that stops reading', () => {
  const ALLOWANCE = 64 * 1024

  /**
   * A plain HTTP server whose every answer is an EventStream, so that a test can hand it as
   * many changes as it likes without a database.
   */
  async function streamServer() {
    const streams: EventStream[] = []
    const server = createServer((_request, response) => {
      const stream = new EventStream(response, ALLOWANCE)
      response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' })
      stream.body.pipe(response)
      stream.open({ missed: [], reset: false, seq: 0 })
      streams.push(stream)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    /** The `count`th stream the server opened. */
    const opened = async (count: number): Promise<EventStream> => {
      await waitUntil(
        () => streams.length >= count,
        () => `stream ${count}`,
      )
      return streams[count - 1] as EventStream
    }
    /** A request whose answer is never read. */
    const stalledReader = () => {
      const outgoing = httpRequest(`${base}/`, { agent: false })
      outgoing.on('response', (response) => response.pause())
      outgoing.on('error', () => undefined)
      outgoing.end()
      return outgoing
    }
    const close = () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    }
    return { base, opened, stalledReader, close }
  }

  /** One change, framed as the watcher hands it out. */
  const change = (seq: number): ChangeBatch => new ChangeBatch([changeAt(seq)])
  const changeAt = (seq: number): NewsChange => ({
    seq,
    id: 'abcdefghijklmnopqrstuv',
    kind: 'edited',
    revision: seq + 1,
    at: new Date(0).toISOString(),
  })

  it('is dropped at the second heartbeat that finds more than its allowance waiting, and at once past a burst’s', async () => {
    const { opened, stalledReader, close } = await streamServer()
    try {
      stalledReader()
      const stream = await opened(1)
      let seq = 0
      // At about 150 bytes a change, the system's socket buffers (a few MB) fill first.
      while (stream.waitingBytes <= ALLOWANCE && seq < 200_000) stream.deliver(change((seq += 1)))
      expect(stream.waitingBytes).toBeGreaterThan(ALLOWANCE)
      expect(stream.isClosed).toBe(false)
      // A reader may have caught up by the next heartbeat; this one has not.
      stream.heartbeat()
      expect(stream.isClosed).toBe(false)
      stream.heartbeat()
      expect(stream.isClosed).toBe(true)

      stalledReader()
      const bursting = await opened(2)
      seq = 0
      while (!bursting.isClosed && seq < 400_000) bursting.deliver(change((seq += 1)))
      expect(bursting.isClosed).toBe(true)
    } finally {
      await close()
    }
  })

  it('keeps a reader that reads through a burst, and sends it every change', async () => {
    const { base, opened, close } = await streamServer()
    try {
      const reader = await openStream(base)
      const stream = await opened(1)
      // Twice the allowance at once, more than a heartbeat would let wait.
      const burst = Math.ceil((2 * ALLOWANCE) / 150)
      for (let seq = 1; seq <= burst; seq += 1) stream.deliver(change(seq))
      await reader.messagesUpTo(burst + 1)
      // Two heartbeats, a beat apart: the reader has taken the first before the second.
      stream.heartbeat()
      await waitUntil(
        () => reader.comments.length === 1,
        () => 'the first heartbeat',
      )
      stream.heartbeat()
      expect(stream.isClosed).toBe(false)
      expect(changeOf(reader.messages[burst] as EventSourceMessage).seq).toBe(burst)
      stream.end()
    } finally {
      await close()
    }
  })
})

describe('stopping a server process with live streams open', () => {
  let running: ServerProcess | undefined

  afterEach(() => running?.child.kill('SIGKILL'))

  it('ends the streams and exits 0 on SIGTERM, without waiting for the shutdown timeout', async () => {
    running = await startServerProcess({
      DATABASE_URL: `sqlite:${join(tempDir('newswire-db-'), 'news.db')}`,
    })
    const streams = await Promise.all([1, 2].map(() => openReady(running?.base ?? '')))
    const signal = Date.now()
    running.child.kill('SIGTERM')
    expect(await running.exited).toBe(0)
    expect(Date.now() - signal).toBeLessThan(3_000)
    await Promise.all(streams.map(({ reader }) => reader.ended))
  }, 30_000)
})
