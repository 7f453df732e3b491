import type { NewsItem } from '@/domain/news-item.entity'
import {
  JSON_HEADERS,
  useServer,
  expectProblem,
  followPages,
  editThroughApi,
  createPostThroughApi,
} from './server-fixture'

const { app } = useServer()

async function create(fields: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/news', headers: JSON_HEADERS, payload: fields })
}

const createValid = (title: string) => createPostThroughApi({ app }, title)

async function clearAll(): Promise<void> {
  for (;;) {
    const page = (await app.inject('/api/news?limit=100')).json<NewsItem[]>()
    if (page.length === 0) return
    for (const item of page) await app.inject({ method: 'DELETE', url: `/api/news/${item._id}` })
  }
}

beforeEach(clearAll)

describe('GET /api/news', () => {
  it('answers an empty array without a Link header when there are no posts', async () => {
    const response = await app.inject('/api/news')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(response.json()).toEqual([])
    expect(response.headers.link).toBeUndefined()
  })

  it('lists posts newest first', async () => {
    const first = await createValid('First')
    const second = await createValid('Second')
    const items = (await app.inject('/api/news')).json<NewsItem[]>()
    expect(items.map((item) => item._id)).toEqual([second._id, first._id])
  })

  it('pages through every post with Link rel="next" until none remain', async () => {
    const created: string[] = []
    for (let i = 1; i <= 5; i += 1) created.unshift((await createValid(`Post ${i}`))._id)

    const { items, links } = await followPages<NewsItem>(
      (url) => app.inject(url),
      '/api/news?limit=2',
    )
    expect(items.map((item) => item._id)).toEqual(created)
    expect(links).toHaveLength(2)
    for (const link of links)
      expect(link).toMatch(/^<\/api\/news\?limit=2&cursor=[^>]+>; rel="next"$/)
  })

  it('answers the default page of 24 with a Link while more remain', async () => {
    for (let i = 0; i < 25; i += 1) await createValid(`Post ${i}`)
    const response = await app.inject('/api/news')
    expect(response.json()).toHaveLength(24)
    expect(response.headers.link).toMatch(/^<\/api\/news\?limit=24&cursor=[^>]+>; rel="next"$/)
  })

  it.each(['0', '101', 'abc', '1.5', '-3', ''])(
    'refuses limit=%s with a 400 problem',
    async (limit) => {
      const response = await app.inject(`/api/news?limit=${limit}`)
      expectProblem(response, 400, 'Bad Request', {
        errors: { limit: 'Must be a whole number from 1 to 100' },
      })
    },
  )

  it.each(['abc', '!!', 'x'.repeat(300)])('refuses a malformed cursor %#', async (cursor) => {
    const response = await app.inject(`/api/news?cursor=${encodeURIComponent(cursor)}`)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ status: 400, errors: { cursor: expect.any(String) } })
  })

  it('accepts limit=100, the maximum', async () => {
    await createValid('Only')
    const response = await app.inject('/api/news?limit=100')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toHaveLength(1)
  })
})

describe('the cached first page', () => {
  it('shows a new post at once', async () => {
    expect((await app.inject('/api/news')).json()).toEqual([])
    const item = await createValid('Fresh')
    expect((await app.inject('/api/news')).json()).toEqual([item])
  })

  it('shows an edit at once', async () => {
    const item = await createValid('Before')
    await app.inject('/api/news')
    const patch = await editThroughApi({ app }, item._id, { title: 'After' })
    expect(patch.statusCode).toBe(200)
    expect((await app.inject('/api/news')).json()).toEqual([patch.json()])
    expect(patch.json()).toMatchObject({ _id: item._id, title: 'After', revision: 2 })
  })

  it('forgets a deleted post at once', async () => {
    const keep = await createValid('Keep')
    const drop = await createValid('Drop')
    expect((await app.inject('/api/news')).json()).toEqual([drop, keep])
    await app.inject({ method: 'DELETE', url: `/api/news/${drop._id}` })
    expect((await app.inject('/api/news')).json()).toEqual([keep])
  })

  it('is never touched by a write: the change signal alone retires it', async () => {
    const item = await createValid('Cached')
    await app.inject('/api/news')
    const touched = ['version', 'get', 'store', 'encoded'].map((method) =>
      vi.spyOn(app.firstPage, method as 'version' | 'get' | 'store' | 'encoded'),
    )
    const url = `/api/news/${item._id}`
    const statuses = [
      (await create({ title: 'T', body: 'B', author: 'A' })).statusCode,
      (await editThroughApi({ app }, item._id, { title: 'Edited' })).statusCode,
      (await app.inject({ method: 'DELETE', url })).statusCode,
      (await app.inject({ method: 'POST', url: `${url}/restore` })).statusCode,
      (await app.inject({ method: 'POST', url: `${url}/revisions/1/restore` })).statusCode,
    ]
    const calls = touched.map((spy) => spy.mock.calls.length)
    vi.restoreAllMocks()
    expect(statuses).toEqual([201, 200, 204, 200, 200])
    expect(calls).toEqual([0, 0, 0, 0])
    expect((await app.inject('/api/news')).json<NewsItem[]>()[1]?.title).toBe('Cached')
  })

  it('answers the same bytes and Link header from the cache as from the store', async () => {
    for (let i = 0; i < 30; i += 1) await createValid(`Post ${i}`)
    const fresh = await app.inject('/api/news')
    const cached = await app.inject('/api/news')
    expect(cached.body).toBe(fresh.body)
    expect(cached.headers.link).toBe(fresh.headers.link)
    expect(cached.headers['content-type']).toBe(fresh.headers['content-type'])
    const explicit = await app.inject('/api/news?limit=24')
    expect(explicit.body).toBe(fresh.body)
  })
})

describe('GET /api/news/:id', () => {
  it.each(['unknown-id', 'not%20an%20id', 'x'.repeat(65)])('answers 404 for %s', async (id) => {
    expectProblem(await app.inject(`/api/news/${id}`), 404, 'Not Found')
  })
})

describe('POST /api/news', () => {
  it('stores the post and answers 201 with the item and its Location', async () => {
    const response = await create({ title: ' Harbour reopens ', body: 'Boats.', author: 'Ada' })
    expect(response.statusCode).toBe(201)
    const item = response.json<NewsItem>()
    expect(item).toEqual({
      _id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      title: 'Harbour reopens',
      body: 'Boats.',
      author: 'Ada',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updatedAt: item.createdAt,
      revision: 1,
    })
    expect(response.headers.location).toBe(`/api/news/${item._id}`)
    expect(response.headers.etag).toBe('"rev-1"')
    expect((await app.inject(`/api/news/${item._id}`)).json()).toEqual(item)
  })

  it('never uses an _id or createdAt from the request', async () => {
    const chosen = { _id: 'chosen-id', createdAt: '1999-01-01T00:00:00.000Z', extra: 'ignored' }
    const response = await create({ title: 'T', body: 'B', author: 'A', ...chosen })
    expect(response.statusCode).toBe(201)
    const item = response.json<NewsItem>()
    expect(item._id).not.toBe('chosen-id')
    expect(item.createdAt).not.toBe('1999-01-01T00:00:00.000Z')
    expect(item).not.toHaveProperty('extra')
    expect((await app.inject('/api/news/chosen-id')).statusCode).toBe(404)
  })
})

describe('PATCH /api/news/:id', () => {
  it('changes only the fields given and answers the item as its next revision', async () => {
    const item = await createValid('Title')
    const at = '1999-01-01T00:00:00.000Z'
    const response = await editThroughApi({ app }, item._id, {
      author: 'Grace',
      ...{ _id: 'other', createdAt: at, revision: 9, updatedAt: at },
    })
    expect(response.statusCode).toBe(200)
    const edited = response.json<NewsItem>()
    expect(edited).toEqual({
      ...item,
      author: 'Grace',
      revision: 2,
      updatedAt: expect.any(String),
    })
    expect(edited.updatedAt > item.updatedAt).toBe(true)
    expect(response.headers.etag).toBe('"rev-2"')
    expect((await app.inject(`/api/news/${item._id}`)).json()).toEqual(edited)
  })

  it('records no revision for an edit that changes nothing', async () => {
    const item = await createValid('Same')
    const response = await editThroughApi({ app }, item._id, { title: 'Same' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(item)
    const history = (await app.inject(`/api/news/${item._id}/revisions`)).json<unknown[]>()
    expect(history).toHaveLength(1)
  })

  it('answers 404 for an unknown id', async () => {
    expectProblem(await editThroughApi({ app }, 'unknown', { title: 'New' }), 404, 'Not Found')
  })
})

const READ_CACHE = 'public, max-age=5, stale-while-revalidate=60'

async function posts(count: number): Promise<NewsItem[]> {
  const created: NewsItem[] = []
  for (let i = 0; i < count; i += 1) created.push(await createValid(`Post ${i}`))
  return created
}

function get(url: string, headers: Record<string, string> = {}) {
  return app.inject({ url, headers })
}

function etagOf(response: { headers: Record<string, unknown> }): string {
  const etag = response.headers.etag
  expect(typeof etag).toBe('string')
  return etag as string
}

describe('GET /api/news with If-None-Match', () => {
  it.each(['/api/news', '/api/news?limit=24', '/api/news?limit=2'])(
    'answers %s with a weak ETag, a short public Cache-Control and Vary',
    async (url) => {
      await posts(3)
      const response = await get(url)
      expect(response.statusCode).toBe(200)
      expect(etagOf(response)).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/)
      expect(response.headers['cache-control']).toBe(READ_CACHE)
      expect(response.headers.vary).toBe('accept-encoding')
    },
  )

  it('answers 304 without a body, with the ETag, Cache-Control and Vary of the 200', async () => {
    await posts(2)
    const full = await get('/api/news')
    const response = await get('/api/news', { 'if-none-match': etagOf(full) })
    expect(response.statusCode).toBe(304)
    expect(response.body).toBe('')
    expect(response.headers.etag).toBe(full.headers.etag)
    expect(response.headers['cache-control']).toBe(READ_CACHE)
    expect(response.headers.vary).toBe('accept-encoding')
    expect(response.headers['content-type']).toBeUndefined()
    expect(response.headers.link).toBeUndefined()
  })

  it('gives the cached first page and the same page read from the store one ETag', async () => {
    await posts(3)
    const fromStore = await get('/api/news?limit=24')
    const first = await get('/api/news')
    const cached = await get('/api/news')
    expect(etagOf(first)).toBe(etagOf(fromStore))
    expect(etagOf(cached)).toBe(etagOf(first))
  })

  it.each([
    ['the tag alone', (tag: string) => tag],
    ['the tag without W/ (weak comparison)', (tag: string) => tag.slice(2)],
    ['the tag in a list', (tag: string) => `"other", ${tag} , W/"more"`],
    ['*', () => '*'],
  ])('answers 304 for %s', async (_name, header) => {
    await posts(1)
    const full = await get('/api/news')
    expect((await get('/api/news', { 'if-none-match': header(etagOf(full)) })).statusCode).toBe(304)
  })

  it.each(['"other"', 'W/"other", "else"', 'garbage', ''])(
    'answers the full page for If-None-Match %j',
    async (header) => {
      await posts(1)
      const response = await get('/api/news', { 'if-none-match': header })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toHaveLength(1)
    },
  )

  it('answers 304 on a later page to its own ETag, and the page again once it changed', async () => {
    const [, middle] = await posts(3)
    const first = await get('/api/news?limit=1')
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1]
    expect(next).toBeDefined()
    const second = await get(String(next))
    expect(second.json<NewsItem[]>().map((item) => item._id)).toEqual([middle?._id])
    expect(etagOf(second)).not.toBe(etagOf(first))
    const tag = etagOf(second)
    expect((await get(String(next), { 'if-none-match': tag })).statusCode).toBe(304)

    await editThroughApi({ app }, middle?._id ?? '', { title: 'Edited' })
    const changed = await get(String(next), { 'if-none-match': tag })
    expect(changed.statusCode).toBe(200)
    expect(changed.json<NewsItem[]>()[0]?.title).toBe('Edited')
    expect(etagOf(changed)).not.toBe(tag)
  })

  it('changes the first page’s ETag with each create and edit, and back once the page is as before', async () => {
    const tags: string[] = []
    const tag = async () => tags.push(etagOf(await get('/api/news')))
    await tag()
    const [item] = await posts(1)
    await tag()
    await editThroughApi({ app }, item?._id ?? '', { body: 'Changed.' })
    await tag()
    await app.inject({ method: 'DELETE', url: `/api/news/${item?._id}` })
    await tag()
    // Derived from the data alone: the empty page has one tag, whenever it is read.
    expect(new Set(tags.slice(0, 3)).size).toBe(3)
    expect(tags[3]).toBe(tags[0])
  })

  it('answers 304 to a client that accepts brotli, with the same ETag as the plain page', async () => {
    for (let i = 0; i < 12; i += 1) await createValid(`A title long enough to compress ${i}`)
    const plain = await get('/api/news')
    const brotli = await get('/api/news', { 'accept-encoding': 'br' })
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(etagOf(brotli)).toBe(etagOf(plain))
    const again = await get('/api/news', {
      'accept-encoding': 'br',
      'if-none-match': etagOf(plain),
    })
    expect(again.statusCode).toBe(304)
    expect(again.rawPayload).toHaveLength(0)
    expect(again.headers['content-encoding']).toBeUndefined()
  })
})

describe('GET /api/news/:id with If-None-Match', () => {
  it('answers "rev-N" with a short public Cache-Control, and 304 to it', async () => {
    const [item] = await posts(1)
    const url = `/api/news/${item?._id}`
    const full = await get(url)
    expect(full.headers.etag).toBe('"rev-1"')
    expect(full.headers['cache-control']).toBe(READ_CACHE)
    expect(full.headers.vary).toBe('accept-encoding')
    for (const header of ['"rev-1"', 'W/"rev-1"', '"rev-9", "rev-1"', '*']) {
      const response = await get(url, { 'if-none-match': header })
      expect(response.statusCode).toBe(304)
      expect(response.body).toBe('')
      expect(response.headers.etag).toBe('"rev-1"')
      expect(response.headers['cache-control']).toBe(READ_CACHE)
    }
  })

  it('answers the new revision to the old ETag once the post was edited', async () => {
    const [item] = await posts(1)
    const url = `/api/news/${item?._id}`
    await editThroughApi({ app }, item?._id ?? '', { title: 'Second' })
    const response = await get(url, { 'if-none-match': '"rev-1"' })
    expect(response.statusCode).toBe(200)
    expect(response.headers.etag).toBe('"rev-2"')
    expect(response.json()).toMatchObject({ title: 'Second', revision: 2 })
  })

  it('answers 404, never 304, for a post that is gone, even to *', async () => {
    const [item] = await posts(1)
    await app.inject({ method: 'DELETE', url: `/api/news/${item?._id}` })
    for (const header of ['*', '"rev-1"']) {
      const response = await get(`/api/news/${item?._id}`, { 'if-none-match': header })
      expect(response.statusCode).toBe(404)
      expect(response.headers['cache-control']).toBe('no-store')
    }
  })
})

describe('Cache-Control of the rest of the API', () => {
  it('keeps no write, trash, history, setting, health check or problem in any cache', async () => {
    const created = await create({ title: 'T', body: 'B', author: 'A' })
    const id = created.json<NewsItem>()._id
    const answers = [
      created,
      await editThroughApi({ app }, id, { title: 'U' }),
      await get(`/api/news/${id}/revisions`),
      await app.inject({ method: 'DELETE', url: `/api/news/${id}` }),
      await get('/api/trash'),
      await app.inject({ method: 'POST', url: `/api/news/${id}/restore` }),
      await get('/api/config'),
      await get('/api/health'),
      await get('/api/news?limit=0'),
      await get('/api/nothing-here'),
      await app.inject({ method: 'POST', url: '/api/news', payload: 'text' }),
    ]
    expect(answers.map((response) => response.statusCode)).toEqual([
      201, 200, 200, 204, 200, 200, 200, 200, 400, 404, 415,
    ])
    for (const response of answers) expect(response.headers['cache-control']).toBe('no-store')
  })
})
