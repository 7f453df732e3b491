import type { FastifyInstance, InjectOptions } from 'fastify'
import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import {
  DEFAULT_HISTORY_PAGE_SIZE,
  MAX_HISTORY_PAGE_SIZE,
} from '@/domain/ports/news-repository.port'
import type { ComposedServer } from '@/composition/server/server.composition'
import {
  JSON_HEADERS,
  TEST_POSTGRES_URL,
  composeTestServer,
  type TestDatabase,
  type TestDatabaseKind,
  describeOnDatabases,
  expectProblem,
  PROBLEM_TYPE,
  followPages,
  editThroughApi,
  createPostThroughApi,
} from './server-fixture'

/** The target of a `Link: <…>; rel="next"` header, if any. */
function linkOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(', ') : header
  return value?.match(/<([^>]+)>;\s*rel="next"/)?.[1]
}

/** Posts are dated to the millisecond; a pause keeps 'newest first' unambiguous. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3))

/** One server over a fresh database of `kind`, with helpers for the calls the tests make. */
async function openApi(kind: TestDatabaseKind) {
  const database: TestDatabase = await kind.create()
  const server: ComposedServer = await composeTestServer({ DATABASE_URL: database.url })
  const app: FastifyInstance = server.app
  const send = (options: InjectOptions | string) => app.inject(options)

  const create = (title: string) => createPostThroughApi(server, title)
  const get = (id: string) => send(`/api/news/${id}`)
  const edit = (id: string, payload: object, headers: Record<string, string> = {}) =>
    editThroughApi(server, id, payload, headers)
  const remove = (id: string, headers: Record<string, string> = {}) =>
    send({ method: 'DELETE', url: `/api/news/${id}`, headers })
  const revisions = (id: string) => send(`/api/news/${id}/revisions`)
  const history = async (id: string) => {
    const response = await revisions(id)
    expect(response.statusCode).toBe(200)
    return response.json<NewsRevision[]>()
  }
  const restore = (id: string, options: Partial<InjectOptions> = {}) =>
    send({ method: 'POST', url: `/api/news/${id}/restore`, ...options })
  const restoreRevision = (id: string, revision: string | number) =>
    send({ method: 'POST', url: `/api/news/${id}/revisions/${revision}/restore` })
  const listIds = async (url = '/api/news?limit=100') =>
    (await send(url)).json<NewsItem[]>().map((item) => item._id)

  return {
    app,
    send,
    create,
    get,
    edit,
    remove,
    revisions,
    history,
    restore,
    restoreRevision,
    listIds,
    async close() {
      await server.close()
      await database.dispose()
    },
  }
}

type Api = Awaited<ReturnType<typeof openApi>>

if (TEST_POSTGRES_URL === undefined) {
  describe.skip('PostgreSQL: SKIPPED because TEST_POSTGRES_URL is not set (start one with scripts/ci-postgres.sh)', () => {
    it('runs the history API suite on PostgreSQL', () => undefined)
  })
}

describeOnDatabases('the history API on $name', (kind) => {
  let api: Api

  beforeAll(async () => {
    api = await openApi(kind)
  })
  afterAll(() => api.close())

  describe('versions on the wire', () => {
    it('answers a strong ETag "rev-N" that follows every change', async () => {
      const item = await api.create('Tagged')
      expect((await api.get(item._id)).headers.etag).toBe('"rev-1"')
      const edited = await api.edit(item._id, { title: 'Tagged again' })
      expect(edited.headers.etag).toBe('"rev-2"')
      const fetched = await api.get(item._id)
      expect(fetched.headers.etag).toBe('"rev-2"')
      expect(fetched.json()).toMatchObject({ revision: 2, title: 'Tagged again' })
    })
  })

  describe('If-Match on PATCH and DELETE', () => {
    it('applies an edit whose If-Match names the stored version', async () => {
      const item = await api.create('Fresh')
      const response = await api.edit(item._id, { title: 'Fresh edit' }, { 'if-match': '"rev-1"' })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({ title: 'Fresh edit', revision: 2 })
    })

    it('answers 412 with the stored post as `current`, and changes nothing, for a stale If-Match', async () => {
      const item = await api.create('Contested')
      const theirs = (await api.edit(item._id, { body: 'Their change.' })).json<NewsItem>()

      const response = await api.edit(item._id, { body: 'My change.' }, { 'if-match': '"rev-1"' })
      expectProblem(response, 412, 'Precondition Failed', { current: theirs })
      expect(response.headers.etag).toBe('"rev-2"')
      expect((await api.get(item._id)).json()).toEqual(theirs)
      expect(await api.history(item._id)).toHaveLength(2)
    })

    // Every form a header can take is read in tests/server/preconditions.test.ts; here, that
    // the routes act on what it reads.
    it.each([
      ['garbage', 'garbage'],
      ['a weak tag', 'W/"rev-1"'],
      ['an empty value', ''],
      // OWS is only SP and HTAB: a no-break space makes the header malformed.
      ['a tag and a no-break space', '"rev-1"\u00a0'],
      ['a list that also holds garbage', 'junk, "rev-1"'],
    ])('answers 412 to an If-Match of %s, which matches nothing', async (_what, ifMatch) => {
      const item = await api.create('Guarded')
      const patch = await api.edit(item._id, { title: 'Changed' }, { 'if-match': ifMatch })
      expect(patch.statusCode).toBe(412)
      expect(patch.json()).toMatchObject({ status: 412, current: item })
      const del = await api.remove(item._id, { 'if-match': ifMatch })
      expect(del.statusCode).toBe(412)
      expect((await api.get(item._id)).json()).toEqual(item)
      expect(await api.history(item._id)).toHaveLength(1)
    })

    it('applies an If-Match of * (any version) and one of a list that names the stored version', async () => {
      const item = await api.create('Listed')
      const any = await api.edit(item._id, { title: 'Any' }, { 'if-match': ' \t*\t ' })
      expect(any.statusCode).toBe(200)
      const listed = await api.edit(
        item._id,
        { title: 'Listed again' },
        { 'if-match': '"rev-7", W/"rev-2",\t"a,b" ,, "rev-2"\t' },
      )
      expect(listed.statusCode).toBe(200)
      expect(listed.json()).toMatchObject({ title: 'Listed again', revision: 3 })
      expect((await api.remove(item._id, { 'if-match': '*' })).statusCode).toBe(204)
    })

    it('moves a post to the trash only while the If-Match of the DELETE is fresh', async () => {
      const item = await api.create('Deleted with care')
      const edited = (await api.edit(item._id, { title: 'Edited first' })).json<NewsItem>()
      const stale = await api.remove(item._id, { 'if-match': '"rev-1"' })
      expect(stale.statusCode).toBe(412)
      expect(stale.json()).toMatchObject({ current: edited })
      expect((await api.get(item._id)).statusCode).toBe(200)
      expect((await api.remove(item._id, { 'if-match': '"rev-2"' })).statusCode).toBe(204)
      expect((await api.get(item._id)).statusCode).toBe(404)
    })

    it('answers 404, not 412, for a post that does not exist or is in the trash', async () => {
      const item = await api.create('Gone')
      await api.remove(item._id)
      for (const id of [item._id, 'never-existed']) {
        expect((await api.edit(id, { title: 'X' }, { 'if-match': '"rev-1"' })).statusCode).toBe(404)
        expect((await api.remove(id, { 'if-match': '"rev-2"' })).statusCode).toBe(404)
      }
    })
  })

  describe('Idempotency-Key on POST /api/news', () => {
    const draft = { title: 'Once', body: 'Only once.', author: 'Ada' }
    const post = (key: string, payload: object = draft) =>
      api.send({
        method: 'POST',
        url: '/api/news',
        headers: { ...JSON_HEADERS, 'idempotency-key': key },
        payload,
      })

    it('answers a repeat with the first result and creates nothing', async () => {
      const key = `repeat-${Date.now()}`
      const first = await post(key)
      expect(first.statusCode).toBe(201)
      const before = await api.listIds()
      const again = await post(key)
      expect(again.statusCode).toBe(201)
      expect(again.json()).toEqual(first.json())
      expect(again.headers.location).toBe(first.headers.location)
      expect(await api.listIds()).toEqual(before)
    })

    it('answers the post as its first revision made it, even after it was edited', async () => {
      const key = `edited-${Date.now()}`
      const first = (await post(key)).json<NewsItem>()
      await api.edit(first._id, { title: 'Edited since' })
      const again = await post(key)
      expect(again.statusCode).toBe(201)
      expect(again.json()).toEqual(first)
      expect(await api.history(first._id)).toHaveLength(2)
    })

    it('answers 422 for the same key with another body, and creates nothing', async () => {
      const key = `mismatch-${Date.now()}`
      expect((await post(key)).statusCode).toBe(201)
      const before = await api.listIds()
      const other = await post(key, { ...draft, body: 'A different post.' })
      expect([other.statusCode, other.headers['content-type']]).toEqual([422, PROBLEM_TYPE])
      expect(other.json()).toMatchObject({ status: 422, detail: expect.stringMatching(/key/i) })
      expect(await api.listIds()).toEqual(before)
    })

    it('makes one post from concurrent repeats of one key', async () => {
      const key = `concurrent-${Date.now()}`
      const before = await api.listIds()
      const answers = await Promise.all(Array.from({ length: 8 }, () => post(key)))
      const ids = new Set(answers.map((answer) => answer.json<NewsItem>()._id))
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(201))
      expect(ids.size).toBe(1)
      expect(await api.listIds()).toEqual([...ids, ...before])
    })

    it('makes separate posts for separate keys', async () => {
      const one = (await post(`one-${Date.now()}`)).json<NewsItem>()
      const two = (await post(`two-${Date.now()}`)).json<NewsItem>()
      expect(one._id).not.toBe(two._id)
    })

    it.each([
      ['over 255 characters', 'k'.repeat(256)],
      ['empty', ''],
      ['with a space', 'two words'],
      ['not ASCII', 'clé'],
      ['with a control character', 'key\u0007'],
    ])('answers 400 for a key %s, and creates nothing', async (_what, key) => {
      const before = await api.listIds()
      const response = await post(key)
      expect([response.statusCode, response.headers['content-type']]).toEqual([400, PROBLEM_TYPE])
      expect(response.json()).toMatchObject({ status: 400, detail: expect.stringMatching(/255/) })
      expect(await api.listIds()).toEqual(before)
    })

    it('accepts a key of exactly 255 visible characters', async () => {
      const key = `${Date.now()}`.padEnd(255, '~')
      expect((await post(key)).statusCode).toBe(201)
    })
  })

  describe('GET /api/news/:id/revisions', () => {
    it('lists every version newest first, for a live and a trashed post', async () => {
      const item = await api.create('Chronicle')
      await api.edit(item._id, { body: 'Second version.' })
      await api.remove(item._id)

      const trashed = await api.history(item._id)
      expect(trashed.map((revision) => [revision.revision, revision.action])).toEqual([
        [3, 'delete'],
        [2, 'edit'],
        [1, 'create'],
      ])
      expect(trashed[2]).toEqual({
        revision: 1,
        title: 'Chronicle',
        body: 'About Chronicle.',
        author: 'Ada',
        action: 'create',
        // The pseudonym of the client's address (tests/server/editors.test.ts).
        editor: expect.stringMatching(/^[0-9a-f]{10}$/),
        at: item.createdAt,
      })
      expect(trashed[1]).toMatchObject({ body: 'Second version.' })

      expect((await api.restore(item._id)).statusCode).toBe(200)
      const restored = await api.history(item._id)
      expect(restored[0]).toMatchObject({ revision: 4, action: 'restore', body: 'Second version.' })
      expect(restored.slice(1)).toEqual(trashed)
    })

    it(`pages a long history by ${DEFAULT_HISTORY_PAGE_SIZE} with Link rel="next", every version once`, async () => {
      const item = await api.create('Long story')
      const edits = DEFAULT_HISTORY_PAGE_SIZE + 10
      for (let index = 1; index <= edits; index += 1) {
        expect((await api.edit(item._id, { title: `Long story ${index}` })).statusCode).toBe(200)
      }
      const first = await api.revisions(item._id)
      expect(first.statusCode).toBe(200)
      expect(first.json<NewsRevision[]>()).toHaveLength(DEFAULT_HISTORY_PAGE_SIZE)
      const link = linkOf(first.headers.link)
      expect(link).toMatch(
        new RegExp(`^/api/news/${item._id}/revisions\\?limit=${DEFAULT_HISTORY_PAGE_SIZE}&cursor=`),
      )

      const { items } = await followPages<NewsRevision>(api.send, `/api/news/${item._id}/revisions`)
      const total = edits + 1
      expect(items.map(({ revision }) => revision)).toEqual(
        Array.from({ length: total }, (_, index) => total - index),
      )

      const small = await api.send(`/api/news/${item._id}/revisions?limit=7`)
      expect(small.json<NewsRevision[]>()).toHaveLength(7)
      expect(linkOf(small.headers.link)).toMatch(/\?limit=7&cursor=/)
      const largest = await api.send(
        `/api/news/${item._id}/revisions?limit=${MAX_HISTORY_PAGE_SIZE}`,
      )
      expect(largest.json<NewsRevision[]>()).toHaveLength(total)
      expect(largest.headers.link).toBeUndefined()
    })

    it.each(['limit=0', 'limit=101', 'limit=ten', 'cursor=garbage', 'cursor=', 'cursor=AAAA…'])(
      'answers 400 problem+json for a bad query (%s)',
      async (query) => {
        const item = await api.create('Queried')
        const url = `/api/news/${item._id}/revisions?${query.replace('AAAA…', 'A'.repeat(5000))}`
        const response = await api.send(url)
        expect([response.statusCode, response.headers['content-type']]).toEqual([400, PROBLEM_TYPE])
      },
    )

    it('answers 404 when paging the history of a post that never existed', async () => {
      const item = await api.create('Paged')
      await api.edit(item._id, { title: 'Paged again' })
      const first = await api.send(`/api/news/${item._id}/revisions?limit=1`)
      const next = linkOf(first.headers.link)
      expect(next).toMatch(/cursor=/)
      const response = await api.send(next?.replace(item._id, 'never-existed') ?? '')
      expect(response.statusCode).toBe(404)
    })

    it.each(['never-existed', 'x'.repeat(65), 'bad%20id'])(
      'answers 404 for an id that never existed (%s)',
      async (id) => {
        const response = await api.revisions(id)
        expect([response.statusCode, response.headers['content-type']]).toEqual([404, PROBLEM_TYPE])
      },
    )
  })

  describe('POST /api/news/:id/revisions/:revision/restore', () => {
    it('makes an old version current as a new revision, with no body', async () => {
      const item = await api.create('Original')
      await api.edit(item._id, { title: 'Vandalised', body: 'Nonsense.' })
      await api.send('/api/news')

      const response = await api.restoreRevision(item._id, 1)
      expect(response.statusCode).toBe(200)
      expect(response.headers.etag).toBe('"rev-3"')
      const restored = response.json<NewsItem>()
      expect(restored).toMatchObject({
        _id: item._id,
        title: 'Original',
        body: 'About Original.',
        revision: 3,
        createdAt: item.createdAt,
      })
      expect((await api.get(item._id)).json()).toEqual(restored)
      const [latest] = await api.history(item._id)
      expect(latest).toMatchObject({ revision: 3, action: 'restore', restoredFrom: 1 })
      // The cached first page shows it at once.
      const first = (await api.send('/api/news')).json<NewsItem[]>()
      expect(first.find((post) => post._id === item._id)).toEqual(restored)
    })

    it.each(['99', '0', '-1', '1.5', '01', '1e0', 'abc', '99999999999999999999', '%20'])(
      'answers 404 for revision %s',
      async (revision) => {
        const item = await api.create('Numbered')
        const response = await api.restoreRevision(item._id, revision)
        expect([response.statusCode, response.headers['content-type']]).toEqual([404, PROBLEM_TYPE])
        expect(await api.history(item._id)).toHaveLength(1)
      },
    )

    it('answers 404 for a post that never existed', async () => {
      expect((await api.restoreRevision('never-existed', 1)).statusCode).toBe(404)
    })

    it('answers 409 for a post in the trash', async () => {
      const item = await api.create('Binned')
      await api.remove(item._id)
      const response = await api.restoreRevision(item._id, 1)
      expect(response.statusCode).toBe(409)
      expect(response.json()).toMatchObject({ status: 409, title: 'Conflict' })
      expect(await api.history(item._id)).toHaveLength(2)
    })
  })

  describe('the trash', () => {
    it('answers a DELETE 204 without a body, leaves the post out of the list and GET, and answers a second DELETE 404', async () => {
      const item = await api.create('Trashed')
      expect(await api.listIds('/api/news')).toContain(item._id)
      const removed = await api.remove(item._id)
      expect([removed.statusCode, removed.body]).toEqual([204, ''])
      expect(await api.listIds('/api/news')).not.toContain(item._id)
      expect(await api.listIds()).not.toContain(item._id)
      expect((await api.get(item._id)).statusCode).toBe(404)
      const again = await api.remove(item._id)
      expect([again.statusCode, again.headers['content-type']]).toEqual([404, PROBLEM_TYPE])
    })

    it('brings a post back under the same id with its history, and then answers 409', async () => {
      const item = await api.create('Returning')
      await api.remove(item._id)
      const response = await api.restore(item._id)
      expect(response.statusCode).toBe(200)
      expect(response.headers.etag).toBe('"rev-3"')
      const back = response.json<NewsItem>()
      expect(back).toMatchObject({ _id: item._id, title: 'Returning', revision: 3 })
      expect(back).not.toHaveProperty('deletedAt')
      expect((await api.get(item._id)).json()).toEqual(back)
      expect((await api.listIds('/api/news'))[0]).toBe(item._id)
      expect(await api.listIds('/api/trash?limit=100')).not.toContain(item._id)

      const twice = await api.restore(item._id)
      expect(twice.statusCode).toBe(409)
      expect(twice.json()).toMatchObject({ status: 409, detail: expect.stringMatching(/trash/) })
    })

    it('answers 404 to a restore of a post that never existed', async () => {
      const response = await api.restore('never-existed')
      expect([response.statusCode, response.headers['content-type']]).toEqual([404, PROBLEM_TYPE])
    })

    it.each([
      ['no body and no type', {}],
      ['an empty JSON body', { headers: JSON_HEADERS, payload: '' }],
      ['a JSON object', { headers: JSON_HEADERS, payload: '{}' }],
      ['text', { headers: { 'content-type': 'text/plain' }, payload: 'please' }],
    ] as const)('restores with %s', async (_what, options) => {
      const item = await api.create('Any body')
      await api.remove(item._id)
      const response = await api.restore(item._id, options)
      expect(response.statusCode).toBe(200)
    })

    it('pages the trash newest deletion first, with Link rel="next" like the list', async () => {
      const own = await openApi(kind)
      try {
        expect((await own.send('/api/trash')).json()).toEqual([])
        const deleted: NewsItem[] = []
        for (const title of ['A', 'B', 'C', 'D', 'E']) deleted.unshift(await own.create(title))
        await own.create('Kept')
        for (const item of [...deleted].reverse()) {
          expect((await own.remove(item._id)).statusCode).toBe(204)
          await tick()
        }

        const { items: seen, links } = await followPages<TrashedNewsItem>(
          own.send,
          '/api/trash?limit=2',
        )
        expect(seen.map((item) => item._id)).toEqual(deleted.map((item) => item._id))
        expect(links).toHaveLength(2)
        for (const link of links) {
          expect(link).toMatch(/^<\/api\/trash\?limit=2&cursor=[^>]+>; rel="next"$/)
        }
        expect(seen[0]).toEqual({
          ...deleted[0],
          revision: 2,
          updatedAt: seen[0]?.deletedAt,
          deletedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
        })
        expect(seen.map((item) => item.deletedAt)).toEqual(
          seen
            .map((item) => item.deletedAt)
            .sort()
            .reverse(),
        )
      } finally {
        await own.close()
      }
    })

    it.each(['limit=0', 'limit=101', 'limit=abc', 'cursor=abc', `cursor=${'x'.repeat(300)}`])(
      'answers 400 for a trash page with %s',
      async (query) => {
        const response = await api.send(`/api/trash?${query}`)
        expect([response.statusCode, response.headers['content-type']]).toEqual([400, PROBLEM_TYPE])
      },
    )
  })

  describe('bad input', () => {
    it('never answers 5xx', async () => {
      const item = await api.create('Sturdy')
      const weird = ['%00', '%E2%80%AE', 'a'.repeat(100), '..', '%2F', "'--", '%F0%9F%92%A3']
      const requests: InjectOptions[] = []
      for (const id of [...weird, item._id]) {
        requests.push(
          { method: 'GET', url: `/api/news/${id}` },
          { method: 'GET', url: `/api/news/${id}/revisions` },
          { method: 'POST', url: `/api/news/${id}/restore` },
          { method: 'POST', url: `/api/news/${id}/revisions/${id}/restore` },
          { method: 'DELETE', url: `/api/news/${id}`, headers: { 'if-match': `"rev-${id}"` } },
          {
            method: 'PATCH',
            url: `/api/news/${id}`,
            headers: { ...JSON_HEADERS, 'if-match': '"rev-1", , ,*' },
            payload: { title: 'X' },
          },
          { method: 'GET', url: `/api/trash?cursor=${id}` },
        )
      }
      requests.push(
        {
          method: 'POST',
          url: '/api/news',
          headers: { ...JSON_HEADERS, 'idempotency-key': '\u00ff'.repeat(300) },
          payload: { title: 'T', body: 'B', author: 'A' },
        },
        { method: 'GET', url: '/api/trash?limit=1&cursor=' },
        { method: 'POST', url: `/api/news/${item._id}/revisions//restore` },
      )
      for (const request of requests) {
        const response = await api.send(request)
        expect.soft(response.statusCode, `${request.method} ${request.url}`).toBeLessThan(500)
      }
    })
  })
})
