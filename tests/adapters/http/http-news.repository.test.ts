import type { ServerResponse } from 'node:http'
import { HttpNewsRepository } from '@/adapters/http/http-news.repository'
import {
  conflict,
  notFound,
  rateLimited,
  stale,
  unavailable,
  validationFailed,
} from '@/domain/domain-error'
import type { NewsRevision } from '@/domain/news-revision.entity'
import {
  refusedOrigin,
  sendJson,
  sendProblem,
  startLocalServer,
  startNewsApi,
  type LocalServer,
  type NewsApiStandIn,
} from './news-api.stand-in'
import { numberedNewsItem } from '../../support/news-item'
import { domainErrorOf } from '../../support/domain-error-of'

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
  api.seed([1, 2, 3, 4, 5].map((n) => numberedNewsItem(n)))
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

  it('goes on from a bare cursor, as a server-rendered page hands it over', async () => {
    const page = await news.list({ cursor: 'news-4' })

    expect(page.items.map((i) => i._id)).toEqual(['news-3', 'news-2', 'news-1'])
    expect(api.received.map((r) => r.rawUrl)).toEqual(['/api/news?cursor=news-4'])
  })

  it('gets one item by id', async () => {
    expect(await news.get('news-3')).toEqual(numberedNewsItem(3))
  })

  it('creates an item with a JSON POST and returns what the server stored', async () => {
    const created = await news.create({ title: 'Fresh', body: 'Words', author: 'Ann' })

    expect(created).toMatchObject({ title: 'Fresh', body: 'Words', author: 'Ann', revision: 1 })
    expect(api.posts).toContainEqual({ ...created, deletedAt: null })
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

    expect(updated).toEqual({
      ...numberedNewsItem(2),
      title: 'Renamed',
      updatedAt: updated.updatedAt,
      revision: 2,
    })
    expect(updated.updatedAt > numberedNewsItem(2).updatedAt).toBe(true)
    expect(JSON.parse(api.received[0]?.body ?? '')).toEqual({ title: 'Renamed' })
    expect(api.received[0]?.method).toBe('PATCH')
    expect(api.received[0]?.headers['if-match']).toBeUndefined()
  })

  it('removes an item with a DELETE answered 204, which moves it to the trash', async () => {
    await news.remove('news-1')

    expect(api.posts.find((post) => post._id === 'news-1')?.deletedAt).not.toBeNull()
    expect(api.received[0]?.method).toBe('DELETE')
    expect(api.received[0]?.headers['if-match']).toBeUndefined()
    expect(await domainErrorOf(news.get('news-1'))).toEqual(notFound())
  })

  it('turns a 404 on an item into NotFound', async () => {
    expect(await domainErrorOf(news.get('news-99'))).toEqual(notFound())
    expect(await domainErrorOf(news.update('news-99', { title: 'x' }))).toEqual(notFound())
    expect(await domainErrorOf(news.remove('news-99'))).toEqual(notFound())
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

/** A version of a post as the API lists it; a test names only what it is about. */
const versionOf = (fields: Partial<NewsRevision> = {}): NewsRevision => ({
  revision: 2,
  title: 't',
  body: 'b',
  author: 'a',
  action: 'edit',
  at: numberedNewsItem(1).updatedAt,
  editor: '3f9a2c0d1e',
  ...fields,
})

type Answer = NonNullable<NewsApiStandIn['override']>
/** Answers of `status`: a problem, any JSON, or a body sent as it is, JSON or not. */
const problem =
  (status: number, title: string): Answer =>
  (_request, response) =>
    sendProblem(response, status, title)
const json =
  (status: number, body: unknown): Answer =>
  (_request, response) =>
    sendJson(response, status, body)
const raw =
  (status: number, type: string, text: string): Answer =>
  (_request, response) => {
    response.writeHead(status, { 'Content-Type': type })
    response.end(text)
  }
const restoring = versionOf({ action: 'restore', restoredFrom: 1 })
const draft = { title: 't', body: 'b', author: 'a' }
const BAD_VERSIONS: Record<string, object> = {
  'an unknown action': { action: 'purge' },
  'revision zero': { revision: 0 },
  'restoredFrom as text': { restoredFrom: '1' },
  'a time that is not an instant': { at: 'yesterday' },
  'no title': { title: null },
  'an editor that is not text': { editor: 7 },
}

describe('HttpNewsRepository when the API misbehaves', () => {
  it.each<[string, Answer, () => Promise<unknown>]>([
    [
      'a 404 on the list itself, no item being named',
      problem(404, 'Not Found'),
      () => news.list({}),
    ],
    [
      'a body that is not JSON',
      raw(200, 'application/json', '{"_id": "news-1", "title": '),
      () => news.get('news-1'),
    ],
    [
      'a list of the wrong shape',
      json(200, [{ ...numberedNewsItem(1), _id: 7 }]),
      () => news.list({}),
    ],
    [
      'an item of the wrong shape',
      json(200, { ...numberedNewsItem(1), createdAt: 'soon' }),
      () => news.get('news-1'),
    ],
    [
      'a created item of the wrong shape',
      json(201, { _id: 'created-1' }),
      () => news.create(draft),
    ],
    ['an unexpected success status', json(200, numberedNewsItem(1)), () => news.remove('news-1')],
    [
      'a 422 without field messages when no key was sent',
      problem(422, 'Unprocessable Content'),
      () => news.create(draft),
    ],
    [
      'a 412 without a current post',
      problem(412, 'Precondition Failed'),
      () => news.update('news-1', { title: 'x' }, { ifRevision: [1] }),
    ],
    [
      'a 412 whose current post is not valid',
      json(412, { current: { ...numberedNewsItem(1), revision: 0 } }),
      () => news.remove('news-1', { ifRevision: [1] }),
    ],
    [
      'a 412 whose body is not JSON',
      raw(412, 'application/problem+json', '{"current": '),
      () => news.remove('news-1', { ifRevision: [1] }),
    ],
    [
      'a 409 on an edit, which has no conflict of its own',
      problem(409, 'Conflict'),
      () => news.update('news-1', { title: 'x' }),
    ],
    [
      'a trash item without its deletion time',
      json(200, [numberedNewsItem(1)]),
      () => news.trash({}),
    ],
    ...Object.entries(BAD_VERSIONS).map(([what, bad]): [string, Answer, () => Promise<unknown>] => [
      `a revision list with one bad element (${what})`,
      json(200, [restoring, { ...restoring, ...bad }]),
      () => news.revisions('news-1', {}),
    ]),
  ])('turns %s into Unavailable', async (_what, answer, call) => {
    api.override = answer

    expect(await domainErrorOf(call())).toEqual(unavailable())
  })

  it('turns a 500 into Unavailable without passing on what the server said', async () => {
    api.override = (_request, response) =>
      sendProblem(response, 500, 'SQLITE_CORRUPT at /srv/newswire/db.ts:42')

    const error = await news.get('news-1').catch((thrown: unknown) => thrown)

    expect(error).toEqual(unavailable())
    expect(JSON.stringify(error) + String(error)).not.toContain('SQLITE')
  })

  it('keeps only the contract fields of an item', async () => {
    api.override = (_request, response) =>
      sendJson(response, 200, { ...numberedNewsItem(1), passwordHash: 'secret' })

    expect(await news.get('news-1')).toEqual(numberedNewsItem(1))
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
      sendJson(response, 200, [numberedNewsItem(1)], {
        Link: `<${foreign.origin}/api/news?cursor=news-1>; rel="next"`,
      })

    const page = await news.list({ limit: 1 })

    expect(page.items).toEqual([numberedNewsItem(1)])
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
      sendJson(response, 200, [numberedNewsItem(2)], {
        Link:
          '</api/news?limit=1>; rel=first; title="page 1, the newest", ' +
          '</api/news?limit=1&cursor=news-2>; title="more; older"; rel="prefetch NEXT"',
      })

    const page = await news.list({ limit: 1 })

    expect(page.next).toBe(`${api.origin}/api/news?limit=1&cursor=news-2`)
  })
})

describe('HttpNewsRepository: idempotent create', () => {
  const draft = { title: 'Once', body: 'Only once.', author: 'Ann' }

  it('sends no Idempotency-Key when none is given', async () => {
    await news.create(draft)

    expect(api.received[0]?.headers).not.toHaveProperty('idempotency-key')
  })

  it('keeps a 422 with field messages as ValidationFailed, key or not', async () => {
    const error = await domainErrorOf(
      news.create({ ...draft, title: ' ' }, { idempotencyKey: 'submit-2' }),
    )

    expect(error).toEqual(validationFailed({ title: 'Sorry, title is required' }))
  })
})

describe('HttpNewsRepository: conditional edit and delete', () => {
  it('sends a condition as If-Match with the revision’s entity tag', async () => {
    const updated = await news.update('news-2', { body: 'New' }, { ifRevision: [1] })

    expect(updated).toMatchObject({ _id: 'news-2', body: 'New', revision: 2 })
    expect(api.received[0]?.headers['if-match']).toBe('"rev-1"')
  })

  it('sends every accepted revision, and one that matches nothing for an empty condition', async () => {
    const current = await news.update('news-2', { body: 'New' }, { ifRevision: [3, 1] })
    expect(api.received[0]?.headers['if-match']).toBe('"rev-3", "rev-1"')

    const error = await domainErrorOf(news.update('news-2', { body: 'Newer' }, { ifRevision: [] }))

    expect(api.received[1]?.headers['if-match']).toBe('"rev-0"')
    expect(error).toEqual(stale(current))
  })

  it('keeps only the contract fields of the current post, and none of the server’s words', async () => {
    api.override = (_request, response) =>
      sendJson(response, 412, {
        title: 'Precondition Failed',
        detail: 'SQLITE_BUSY at /srv/newswire/db.ts:42',
        current: { ...numberedNewsItem(1), revision: 4, deletedAt: null, editorIp: '10.0.0.7' },
      })

    const error = await domainErrorOf(news.update('news-1', { title: 'x' }, { ifRevision: [3] }))

    expect(error).toEqual(stale({ ...numberedNewsItem(1), revision: 4 }))
    expect(JSON.stringify(error)).not.toMatch(/SQLITE|10\.0\.0\.7|deletedAt/)
  })
})

describe('HttpNewsRepository: the trash', () => {
  it('turns a restore of a live post into Conflict(NotInTrash), and of an unknown one NotFound', async () => {
    expect(await domainErrorOf(news.restore('news-1'))).toEqual(conflict('NotInTrash'))
    expect(await domainErrorOf(news.restore('news-99'))).toEqual(notFound())
  })

  it('pages through the trash newest deletion first by following its Link rel="next"', async () => {
    for (const id of ['news-2', 'news-5', 'news-1']) await news.remove(id)

    const first = await news.trash({ limit: 2 })
    const second = await news.trash({ limit: 2, cursor: first.next })

    expect(first.items.map((i) => i._id)).toEqual(['news-1', 'news-5'])
    expect(second.items.map((i) => i._id)).toEqual(['news-2'])
    expect(first.next).toBe(`${api.origin}/api/trash?limit=2&cursor=news-5`)
    expect(second.next).toBeUndefined()
    expect(first.items[0]).toEqual({
      ...numberedNewsItem(1),
      updatedAt: first.items[0]?.deletedAt,
      revision: 2,
      deletedAt: first.items[0]?.deletedAt,
    })
    expect(api.received.slice(-2).map((r) => r.rawUrl)).toEqual([
      '/api/trash?limit=2',
      '/api/trash?limit=2&cursor=news-5',
    ])
  })

  it('does not follow a trash link that leads away from the trash', async () => {
    const trashed = { ...numberedNewsItem(1), deletedAt: numberedNewsItem(1).updatedAt }
    for (const target of [`${foreign.origin}/api/trash?cursor=news-1`, '/api/news?cursor=news-1']) {
      api.override = (_request, response) =>
        sendJson(response, 200, [trashed], { Link: `<${target}>; rel="next"` })

      const page = await news.trash({ limit: 1 })

      expect(page).toEqual({ items: [trashed] })
    }
  })

  it('refuses a forged trash cursor without sending anything anywhere', async () => {
    for (const forged of [
      `${foreign.origin}/api/trash?cursor=news-1`,
      `${api.origin}/api/news?cursor=news-1`,
    ]) {
      expect(await domainErrorOf(news.trash({ cursor: forged }))).toEqual(unavailable())
    }
    expect(foreign.received).toHaveLength(0)
    expect(api.received).toHaveLength(0)
  })

  it('keeps only the contract fields of a trash item', async () => {
    const trashed = { ...numberedNewsItem(1), deletedAt: numberedNewsItem(1).updatedAt }
    api.override = (_request, response) =>
      sendJson(response, 200, [{ ...trashed, deletedBy: '10.0.0.7' }])

    expect(await news.trash({})).toEqual({ items: [trashed] })
  })
})

describe('HttpNewsRepository: revisions', () => {
  it('lists a post’s revisions newest first, trashed posts included', async () => {
    await news.update('news-1', { title: 'Second' })
    await news.remove('news-1')

    const { items: history, next } = await news.revisions('news-1', {})

    expect(history.map((r) => [r.revision, r.action, r.title])).toEqual([
      [3, 'delete', 'Second'],
      [2, 'edit', 'Second'],
      [1, 'create', 'Title 1'],
    ])
    expect(next).toBeUndefined()
    expect(api.received.at(-1)?.rawUrl).toBe('/api/news/news-1/revisions')
  })

  it('pages through a post’s history, newest first, by following its Link rel="next"', async () => {
    for (const title of ['Two', 'Three', 'Four']) await news.update('news-1', { title })

    const first = await news.revisions('news-1', { limit: 3 })
    const second = await news.revisions('news-1', { limit: 3, cursor: first.next })

    expect(first.items.map((r) => r.revision)).toEqual([4, 3, 2])
    expect(second.items.map((r) => [r.revision, r.action])).toEqual([[1, 'create']])
    expect(first.next).toBe(`${api.origin}/api/news/news-1/revisions?limit=3&cursor=2`)
    expect(second.next).toBeUndefined()
    expect(api.received.slice(-2).map((r) => r.rawUrl)).toEqual([
      '/api/news/news-1/revisions?limit=3',
      '/api/news/news-1/revisions?limit=3&cursor=2',
    ])
  })

  it('does not follow a history link that leads away from the same post’s history', async () => {
    const version = versionOf()
    for (const target of [
      `${foreign.origin}/api/news/news-1/revisions?cursor=1`,
      '/api/news/news-2/revisions?cursor=1',
      '/api/trash?cursor=1',
    ]) {
      api.override = (_request, response) =>
        sendJson(response, 200, [version], { Link: `<${target}>; rel="next"` })

      expect(await news.revisions('news-1', { limit: 1 })).toEqual({ items: [version] })
    }
  })

  it('refuses a forged history cursor without sending anything anywhere', async () => {
    for (const forged of [
      `${foreign.origin}/api/news/news-1/revisions?cursor=1`,
      `${api.origin}/api/news/news-2/revisions?cursor=1`,
      `${api.origin}/api/news?cursor=news-1`,
      'not a url',
    ]) {
      expect(await domainErrorOf(news.revisions('news-1', { cursor: forged }))).toEqual(
        unavailable(),
      )
    }
    expect(foreign.received).toHaveLength(0)
    expect(api.received).toHaveLength(0)
  })

  it('turns revisions of a post that never existed into NotFound, first page or later', async () => {
    expect(await domainErrorOf(news.revisions('news-99', {}))).toEqual(notFound())
    const later = `${api.origin}/api/news/news-99/revisions?limit=1&cursor=1`
    expect(await domainErrorOf(news.revisions('news-99', { cursor: later }))).toEqual(notFound())
  })

  it('turns an unknown revision into NotFound, asking only when the number could exist', async () => {
    expect(await domainErrorOf(news.restoreRevision('news-1', 9))).toEqual(notFound())
    expect(api.received).toHaveLength(1)

    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(await domainErrorOf(news.restoreRevision('news-1', bad))).toEqual(notFound())
    }
    expect(api.received).toHaveLength(1)
  })

  it('keeps only the contract fields of a revision', async () => {
    const plain = versionOf({ revision: 1, action: 'create', editor: 'operator' })
    api.override = (_request, response) => sendJson(response, 200, [{ ...plain, ip: '10.0.0.7' }])

    const { items: history } = await news.revisions('news-1', {})

    expect(history).toEqual([plain])
    expect(history[0]).not.toHaveProperty('restoredFrom')
  })
})

describe('HttpNewsRepository: the write limit', () => {
  const limitedWith = (headers: Record<string, string>, options: { sendDate?: boolean } = {}) => {
    api.override = (_request, response) => {
      if (options.sendDate === false) response.sendDate = false
      sendJson(response, 429, { title: 'Too Many Requests', detail: 'bucket 10.0.0.7' }, headers)
    }
  }
  const create = () => news.create({ title: 't', body: 'b', author: 'a' })

  it('turns a 429 into RateLimited with the Retry-After seconds', async () => {
    limitedWith({ 'Retry-After': '42' })

    const error = await domainErrorOf(create())

    expect(error).toEqual(rateLimited(42))
    expect(JSON.stringify(error)).not.toContain('10.0.0.7')
  })

  it('reads a Retry-After date against the answer’s own Date header', async () => {
    limitedWith({
      Date: 'Tue, 01 Jan 2030 00:00:00 GMT',
      'Retry-After': 'Tue, 01 Jan 2030 00:01:30 GMT',
    })

    expect(await domainErrorOf(create())).toEqual(rateLimited(90))
  })

  it('reads a Retry-After date against the local clock when the answer has no Date', async () => {
    limitedWith(
      { 'Retry-After': new Date(Date.now() + 120_000).toUTCString() },
      { sendDate: false },
    )

    const error = await domainErrorOf(create())

    expect(error.code).toBe('RateLimited')
    const seconds = error.code === 'RateLimited' ? error.retryAfterSeconds : 0
    expect(seconds).toBeGreaterThanOrEqual(115)
    expect(seconds).toBeLessThanOrEqual(120)
  })

  it('waits a minute when Retry-After is missing or garbage, and keeps the wait in 1…3600 s', async () => {
    const cases: [Record<string, string>, number][] = [
      [{}, 60],
      [{ 'Retry-After': 'soon' }, 60],
      [{ 'Retry-After': '1.5' }, 60],
      [{ 'Retry-After': '-5' }, 60],
      [{ 'Retry-After': '0' }, 1],
      [{ 'Retry-After': '86400' }, 3600],
      [{ 'Retry-After': 'Mon, 01 Jan 2001 00:00:00 GMT' }, 1],
    ]
    for (const [headers, seconds] of cases) {
      limitedWith(headers)
      expect(await domainErrorOf(create())).toEqual(rateLimited(seconds))
    }
  })

  it('reads a 429 the same way on every write', async () => {
    limitedWith({ 'Retry-After': '7' })

    const writes = [
      () => news.update('news-1', { title: 'x' }, { ifRevision: [1] }),
      () => news.remove('news-1'),
      () => news.restore('news-1'),
      () => news.restoreRevision('news-1', 1),
    ]
    for (const write of writes) {
      expect(await domainErrorOf(write())).toEqual(rateLimited(7))
    }
  })
})
