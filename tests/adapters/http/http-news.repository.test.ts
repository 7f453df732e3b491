import type { ServerResponse } from 'node:http'
import { HttpNewsRepository } from '@/adapters/http/http-news.repository'
import {
  DomainErrorException,
  notFound,
  unavailable,
  validationFailed,
  type DomainError,
} from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'
import {
  refusedOrigin,
  sendJson,
  sendProblem,
  startLocalServer,
  startNewsApi,
  type LocalServer,
  type NewsApiStandIn,
} from './news-api.stand-in'

const item = (n: number): NewsItem => ({
  _id: `news-${n}`,
  title: `Title ${n}`,
  body: `Body ${n}`,
  author: `Author ${n}`,
  createdAt: new Date(Date.UTC(2024, 0, n)).toISOString(),
})

async function domainErrorOf(call: Promise<unknown>): Promise<DomainError> {
  try {
    await call
  } catch (thrown) {
    if (thrown instanceof DomainErrorException) return thrown.error
    throw thrown
  }
  throw new Error('expected the call to fail')
}

let api: NewsApiStandIn
let foreign: LocalServer
let news: HttpNewsRepository

beforeAll(async () => {
  api = await startNewsApi()
  // Another port is another origin: a stand-in for a site the adapter must not be led to.
  foreign = await startLocalServer((_request, response) => sendJson(response, 200, []))
})

afterAll(async () => {
  await api.close()
  await foreign.close()
})

beforeEach(() => {
  api.items.splice(0, api.items.length, ...[1, 2, 3, 4, 5].map(item))
  api.received.length = 0
  api.override = undefined
  foreign.received.length = 0
  news = new HttpNewsRepository({ baseUrl: api.origin })
})

describe('HttpNewsRepository over the API contract', () => {
  it('pages through the list newest first by following the Link rel="next" URLs', async () => {
    const first = await news.list({ limit: 2 })
    const second = await news.list({ limit: 2, cursor: first.next })
    const third = await news.list({ limit: 2, cursor: second.next })

    expect(first.items.map((i) => i._id)).toEqual(['news-5', 'news-4'])
    expect(second.items.map((i) => i._id)).toEqual(['news-3', 'news-2'])
    expect(third.items.map((i) => i._id)).toEqual(['news-1'])
    expect(first.next).toBe(`${api.origin}/api/news?limit=2&cursor=news-4`)
    expect(second.next).toBe(`${api.origin}/api/news?limit=2&cursor=news-2`)
    expect(third.next).toBeUndefined()
    expect(api.received.map((r) => r.rawUrl)).toEqual([
      '/api/news?limit=2',
      '/api/news?limit=2&cursor=news-4',
      '/api/news?limit=2&cursor=news-2',
    ])
  })

  it('gets one item by id', async () => {
    expect(await news.get('news-3')).toEqual(item(3))
  })

  it('creates an item with a JSON POST and returns what the server stored', async () => {
    const created = await news.create({ title: 'Fresh', body: 'Words', author: 'Ann' })

    expect(created).toMatchObject({ title: 'Fresh', body: 'Words', author: 'Ann' })
    expect(api.items).toContainEqual(created)
    const [request] = api.received
    expect(request?.method).toBe('POST')
    expect(request?.headers['content-type']).toBe('application/json')
    expect(request?.headers.accept).toBe('application/json')
    expect(JSON.parse(request?.body ?? '')).toEqual({
      title: 'Fresh',
      body: 'Words',
      author: 'Ann',
    })
  })

  it('updates only the fields given, with a PATCH', async () => {
    const updated = await news.update('news-2', { title: 'Renamed' })

    expect(updated).toEqual({ ...item(2), title: 'Renamed' })
    expect(JSON.parse(api.received[0]?.body ?? '')).toEqual({ title: 'Renamed' })
    expect(api.received[0]?.method).toBe('PATCH')
  })

  it('removes an item with a DELETE answered 204', async () => {
    await news.remove('news-1')

    expect(api.items.map((i) => i._id)).not.toContain('news-1')
    expect(api.received[0]?.method).toBe('DELETE')
  })

  it('turns a 404 on an item into NotFound', async () => {
    expect(await domainErrorOf(news.get('news-99'))).toEqual(notFound())
    expect(await domainErrorOf(news.update('news-99', { title: 'x' }))).toEqual(notFound())
    expect(await domainErrorOf(news.remove('news-99'))).toEqual(notFound())
  })

  it('turns a 422 problem into the field messages the server gave', async () => {
    const error = await domainErrorOf(news.create({ title: '', body: 'b', author: ' ' }))

    expect(error).toEqual(
      validationFailed({ title: 'Sorry, title is required', author: 'Sorry, author is required' }),
    )
  })

  it('keeps only string messages from a 422 problem, and without any it is Unavailable', async () => {
    api.override = (_request, response) =>
      sendJson(response, 422, { title: 'Invalid', status: 422, errors: { body: 'Too long', n: 4 } })
    expect(await domainErrorOf(news.update('news-1', { body: 'x' }))).toEqual(
      validationFailed({ body: 'Too long' }),
    )

    api.override = (_request, response) => sendJson(response, 422, { errors: { body: null } })
    expect(await domainErrorOf(news.update('news-1', { body: 'x' }))).toEqual(unavailable())
  })

  it('sends ids URL-encoded in the path', async () => {
    expect(await domainErrorOf(news.get('a/b?c#d e'))).toEqual(notFound())

    expect(api.received[0]?.rawUrl).toBe('/api/news/a%2Fb%3Fc%23d%20e')
  })
})

describe('HttpNewsRepository when the API misbehaves', () => {
  it('turns a 500 into Unavailable without passing on what the server said', async () => {
    api.override = (_request, response) =>
      sendProblem(response, 500, 'SQLITE_CORRUPT at /srv/newswire/db.ts:42')

    const error = await news.get('news-1').catch((thrown: unknown) => thrown)

    expect(error).toBeInstanceOf(DomainErrorException)
    expect((error as DomainErrorException).error).toEqual(unavailable())
    expect(JSON.stringify(error) + String(error)).not.toContain('SQLITE')
  })

  it('turns a 404 on the list itself into Unavailable, since no item was named', async () => {
    api.override = (_request, response) => sendProblem(response, 404, 'Not Found')

    expect(await domainErrorOf(news.list({ limit: 2 }))).toEqual(unavailable())
  })

  it('turns a body that is not JSON into Unavailable', async () => {
    api.override = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.end('{"_id": "news-1", "title": ')
    }

    expect(await domainErrorOf(news.get('news-1'))).toEqual(unavailable())
  })

  it('turns JSON of the wrong shape into Unavailable', async () => {
    api.override = (_request, response) => sendJson(response, 200, [{ ...item(1), _id: 7 }])
    expect(await domainErrorOf(news.list({}))).toEqual(unavailable())

    api.override = (_request, response) =>
      sendJson(response, 200, { ...item(1), createdAt: 'soon' })
    expect(await domainErrorOf(news.get('news-1'))).toEqual(unavailable())

    api.override = (_request, response) => sendJson(response, 201, { _id: 'created-1' })
    expect(await domainErrorOf(news.create({ title: 't', body: 'b', author: 'a' }))).toEqual(
      unavailable(),
    )
  })

  it('keeps only the contract fields of an item', async () => {
    api.override = (_request, response) =>
      sendJson(response, 200, { ...item(1), passwordHash: 'secret' })

    expect(await news.get('news-1')).toEqual(item(1))
  })

  it('treats an unexpected success status as Unavailable', async () => {
    api.override = (_request, response) => sendJson(response, 200, item(1))

    expect(await domainErrorOf(news.remove('news-1'))).toEqual(unavailable())
  })

  it('turns a refused connection into Unavailable', async () => {
    const nowhere = new HttpNewsRepository({ baseUrl: await refusedOrigin() })

    expect(await domainErrorOf(nowhere.list({}))).toEqual(unavailable())
  })

  it('gives up after timeoutMs when the server never answers', async () => {
    const unanswered: ServerResponse[] = []
    api.override = (_request, response) => void unanswered.push(response)
    const impatient = new HttpNewsRepository({ baseUrl: api.origin, timeoutMs: 200 })
    const started = performance.now()

    try {
      expect(await domainErrorOf(impatient.get('news-1'))).toEqual(unavailable())
      expect(performance.now() - started).toBeGreaterThanOrEqual(150)
      expect(performance.now() - started).toBeLessThan(5000)
      expect(unanswered).toHaveLength(1)
    } finally {
      for (const response of unanswered) response.destroy()
    }
  })

  it('also times out when the body stalls after the headers', async () => {
    const stalled: ServerResponse[] = []
    api.override = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.write('[')
      stalled.push(response)
    }
    const impatient = new HttpNewsRepository({ baseUrl: api.origin, timeoutMs: 200 })

    try {
      expect(await domainErrorOf(impatient.list({}))).toEqual(unavailable())
    } finally {
      for (const response of stalled) response.destroy()
    }
  })

  it('does not offer a next page whose link points at another origin', async () => {
    api.override = (_request, response) =>
      sendJson(response, 200, [item(1)], {
        Link: `<${foreign.origin}/api/news?cursor=news-1>; rel="next"`,
      })

    const page = await news.list({ limit: 1 })

    expect(page.items).toEqual([item(1)])
    expect(page.next).toBeUndefined()
  })

  it('refuses a cursor for another origin without sending anything there', async () => {
    const forged = `${foreign.origin}/api/news?cursor=news-1`

    expect(await domainErrorOf(news.list({ cursor: forged }))).toEqual(unavailable())
    expect(foreign.received).toHaveLength(0)
    expect(api.received).toHaveLength(0)
  })

  it('finds rel="next" among several links, with quoted and multiple relation types', async () => {
    api.override = (_request, response) =>
      sendJson(response, 200, [item(2)], {
        Link:
          '</api/news?limit=1>; rel=first; title="page 1, the newest", ' +
          '</api/news?limit=1&cursor=news-2>; title="more; older"; rel="prefetch NEXT"',
      })

    const page = await news.list({ limit: 1 })

    expect(page.next).toBe(`${api.origin}/api/news?limit=1&cursor=news-2`)
  })
})
