import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EventSource } from 'eventsource'
import {
  EventSourceNewsChanges,
  type EventSourceLike,
} from '@/adapters/http/event-source.news-changes'
import type { ComposedServer } from '@/composition/server/server.composition'
import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsChangeSubscription } from '@/domain/ports/news-changes.port'
import {
  composeTestServer,
  createPostThroughApi,
  JSON_HEADERS,
  removeTempDirs,
} from '../../server/server-fixture'

// The browser's EventSource adapter against the real server's GET /api/events. Node has no
// EventSource: the `eventsource` package is the WHATWG one.
const connect = (url: string) => new EventSource(url) as unknown as EventSourceLike

/** What a feed told, in order. */
interface Told {
  readonly ready: number[]
  readonly changes: NewsChange[]
  readonly resets: number[]
  dropped: number
  readonly order: string[]
}

function listen(feed: EventSourceNewsChanges, since?: number) {
  const told: Told = { ready: [], changes: [], resets: [], dropped: 0, order: [] }
  const subscription: NewsChangeSubscription = feed.open(since, {
    ready: (seq) => void (told.ready.push(seq), told.order.push(`ready ${seq}`)),
    change: (change) => void (told.changes.push(change), told.order.push(`change ${change.seq}`)),
    reset: (seq) => void (told.resets.push(seq), told.order.push(`reset ${seq}`)),
    dropped: () => void ((told.dropped += 1), told.order.push('dropped')),
  })
  opened.push(subscription)
  return told
}

const opened: NewsChangeSubscription[] = []
afterEach(() => {
  for (const subscription of opened.splice(0)) subscription.close()
})

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function baseOf(server: ComposedServer): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`
}

describe('the EventSource change feed against the real server', () => {
  let server: ComposedServer
  let feed: EventSourceNewsChanges

  beforeAll(async () => {
    server = await composeTestServer({}, { events: { heartbeatMs: 200, perAddress: 3 } })
    feed = new EventSourceNewsChanges({ baseUrl: await baseOf(server), connect })
  })

  afterAll(async () => {
    await server.close()
    removeTempDirs()
  })

  async function call(method: 'PATCH' | 'DELETE' | 'POST', url: string, payload?: object) {
    const response = await server.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { headers: JSON_HEADERS, payload }),
    })
    expect(response.statusCode, `${method} ${url}`).toBeLessThan(300)
  }

  it('tells each change made through the API, in order, once ready', async () => {
    const told = listen(feed)
    await until(() => told.ready.length === 1, 'ready')

    const post: NewsItem = await createPostThroughApi(server, 'Tide tables')
    await call('PATCH', `/api/news/${post._id}`, { title: 'Tide tables, corrected' })
    await call('DELETE', `/api/news/${post._id}`)
    await call('POST', `/api/news/${post._id}/restore`)
    await until(() => told.changes.length === 4, 'four changes')

    expect(told.changes.map(({ id, kind, revision }) => ({ id, kind, revision }))).toEqual([
      { id: post._id, kind: 'created', revision: 1 },
      { id: post._id, kind: 'edited', revision: 2 },
      { id: post._id, kind: 'deleted', revision: 3 },
      { id: post._id, kind: 'restored', revision: 4 },
    ])
    const [start = 0] = told.ready
    expect(told.changes.map((change) => change.seq)).toEqual([
      start + 1,
      start + 2,
      start + 3,
      start + 4,
    ])
    expect(told.dropped).toBe(0)
  })

  it('resumes after the last change it saw and tells what was missed, then ready', async () => {
    const first = listen(feed)
    await until(() => first.ready.length === 1, 'ready')
    await createPostThroughApi(server, 'Seen')
    await until(() => first.changes.length === 1, 'the first change')
    const seen = first.changes[0]?.seq ?? 0
    opened.splice(0).forEach((subscription) => subscription.close())

    const missed = [
      await createPostThroughApi(server, 'Missed one'),
      await createPostThroughApi(server, 'Missed two'),
    ]
    const again = listen(feed, seen)
    await until(() => again.ready.length === 1, 'ready again')

    expect(again.order).toEqual([`change ${seen + 1}`, `change ${seen + 2}`, `ready ${seen + 2}`])
    expect(again.changes.map((change) => change.id)).toEqual(missed.map((post) => post._id))
  })

  it('is told to reset when it resumes from a point the log cannot replay from', async () => {
    const now = listen(feed)
    await until(() => now.ready.length === 1, 'ready')
    const current = now.ready[0] ?? 0

    const ahead = listen(feed, current + 100)
    await until(() => ahead.ready.length === 1, 'ready after the reset')
    expect(ahead.order).toEqual([`reset ${current}`, `ready ${current}`])
  })

  it('reports a refused stream (a 400 or a 429) as dropped once, and keeps it closed', async () => {
    const refused = listen(feed, 1.5)
    await until(() => refused.dropped > 0, 'the refusal')

    const full = [listen(feed), listen(feed), listen(feed)]
    await until(() => full.every((told) => told.ready.length === 1), 'three streams')
    const overCap = listen(feed)
    await until(() => overCap.dropped > 0, 'the 429')

    // The browser's own reconnection never runs: nothing more is told.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(refused.order).toEqual(['dropped'])
    expect(overCap.order).toEqual(['dropped'])
  })
})

describe('the EventSource change feed against a server that breaks the protocol', () => {
  let stand: Server
  let base: string
  let body = ''

  beforeAll(async () => {
    stand = createServer((_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' })
      response.write(body)
    })
    await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    stand.closeAllConnections()
    await new Promise((resolve) => stand.close(resolve))
  })

  it.each([
    [
      'a change without its kind',
      'event: change\ndata: {"seq":3,"id":"a","revision":1,"at":"2025-01-01T00:00:00Z"}\n\n',
    ],
    ['a position that is not a number', 'event: ready\ndata: {"seq":"3"}\n\n'],
    ['data that is not JSON', 'event: reset\ndata: three\n\n'],
  ])('drops the stream on %s, rather than read on past it', async (_, message) => {
    body = `event: change\ndata: {"seq":2,"id":"b","kind":"created","revision":1,"at":"2025-01-01T00:00:00Z"}\n\n${message}event: ready\ndata: {"seq":9}\n\n`
    const feed = new EventSourceNewsChanges({ baseUrl: base, connect })
    const told = listen(feed)
    await until(() => told.dropped > 0, 'the drop')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(told.order).toEqual(['change 2', 'dropped'])
  })
})
