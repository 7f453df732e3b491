import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import {
  currentItemOf,
  newsItemOf,
  newsRevisionOf,
  trashedNewsItemOf,
} from '@/adapters/http/response.guards'
import {
  NewsItemSchema,
  NewsRevisionSchema,
  TrashedNewsItemSchema,
} from '@/contract/news.wire-schemas'
import { conforms, decode } from '@/adapters/http/wire-schema.checker'
import type { ComposedServer } from '@/composition/server/server.composition'
import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import {
  composeTestServer,
  createPostThroughApi,
  JSON_HEADERS,
  removeTempDirs,
  editThroughApi,
} from '../../server/server-fixture'

const ITEM: NewsItem = {
  _id: 'a1_B-2',
  title: 'Rain',
  body: 'Rain all day.',
  author: 'Ada',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T11:30:00.000Z',
  revision: 2,
}

const TRASHED: TrashedNewsItem = { ...ITEM, deletedAt: '2026-03-03T08:00:00.000Z' }

const REVISION: NewsRevision = {
  revision: 3,
  title: 'Rain',
  body: 'Rain all day.',
  author: 'Ada',
  action: 'restore',
  at: '2026-03-02T11:30:00.000Z',
  editor: '3f9a2c0d1e',
  restoredFrom: 1,
}

/** Values that break the schema in one place each, with what they break. */
const WRONG_ITEMS: readonly [string, unknown][] = [
  ['not an object', 'Rain'],
  ['an array', [ITEM]],
  ['null', null],
  ['a missing title', { ...ITEM, title: undefined }],
  ['a numeric title', { ...ITEM, title: 5 }],
  ['an _id that is not URL-safe', { ...ITEM, _id: 'a/b' }],
  ['an empty _id', { ...ITEM, _id: '' }],
  ['an _id of 65 characters', { ...ITEM, _id: 'x'.repeat(65) }],
  ['revision 0', { ...ITEM, revision: 0 }],
  ['a fractional revision', { ...ITEM, revision: 1.5 }],
  ['a revision as text', { ...ITEM, revision: '2' }],
  ['a date that is not a date-time', { ...ITEM, createdAt: '2026-03-01' }],
  ['a date-time with no zone', { ...ITEM, createdAt: '2026-03-01T10:00:00' }],
  ['the 30th of February', { ...ITEM, createdAt: '2026-02-30T10:00:00Z' }],
  ['hour 24', { ...ITEM, updatedAt: '2026-03-01T24:00:00Z' }],
  ['words for a date', { ...ITEM, updatedAt: 'yesterday' }],
]

const WRONG_REVISIONS: readonly [string, unknown][] = [
  ['an unknown action', { ...REVISION, action: 'purge' }],
  ['restoredFrom as text', { ...REVISION, restoredFrom: '1' }],
  ['restoredFrom 0', { ...REVISION, restoredFrom: 0 }],
  ['a missing at', { ...REVISION, at: undefined }],
]

const RIGHT_DATE_TIMES = [
  '2026-03-01T10:00:00Z',
  '2026-03-01T10:00:00.123456Z',
  '2024-02-29T23:59:59+01:00',
  '2026-12-31t00:00:00-05:30',
]

/** JSON drops undefined properties, as the wire does. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown

describe('the wire schema checker', () => {
  it('agrees with TypeBox’s own Value.Check on right and wrong posts, trashed posts and revisions', () => {
    const cases: [TSchema, unknown][] = [
      [NewsItemSchema, ITEM],
      [TrashedNewsItemSchema, TRASHED],
      [TrashedNewsItemSchema, ITEM],
      [NewsRevisionSchema, REVISION],
      [NewsRevisionSchema, { ...REVISION, restoredFrom: undefined }],
      ...RIGHT_DATE_TIMES.map((at): [TSchema, unknown] => [
        NewsRevisionSchema,
        { ...REVISION, at },
      ]),
      ...WRONG_ITEMS.map(([, value]): [TSchema, unknown] => [NewsItemSchema, value]),
      ...WRONG_ITEMS.map(([, value]): [TSchema, unknown] => [TrashedNewsItemSchema, value]),
      ...WRONG_REVISIONS.map(([, value]): [TSchema, unknown] => [NewsRevisionSchema, value]),
    ]
    for (const [schema, value] of cases) {
      const sent = wire(value)
      expect({ value: sent, verdict: decode(schema, sent) !== undefined }).toEqual({
        value: sent,
        verdict: Value.Check(schema, sent),
      })
    }
    // Not a vacuous agreement: both halves of the corpus are there.
    expect(cases.filter(([schema, value]) => Value.Check(schema, wire(value))).length).toBe(8)
  })

  it.each(WRONG_ITEMS)('refuses a post with %s', (_what, value) => {
    expect(newsItemOf(wire(value))).toBeUndefined()
    expect(trashedNewsItemOf(wire(value))).toBeUndefined()
  })

  it.each(WRONG_REVISIONS)('refuses a revision with %s', (_what, value) => {
    expect(newsRevisionOf(wire(value))).toBeUndefined()
  })

  it('refuses a trashed post without its deletion time', () => {
    expect(trashedNewsItemOf(wire(ITEM))).toBeUndefined()
  })

  it('keeps only the contract’s fields, at every depth', () => {
    const sent = wire({ ...ITEM, secret: 'x', ['__proto__']: { polluted: true } })
    expect(newsItemOf(sent)).toEqual(ITEM)
    expect(Object.keys(newsItemOf(sent) ?? {})).not.toContain('secret')
    expect(currentItemOf(wire({ status: 412, current: { ...ITEM, extra: 1 } }))).toEqual(ITEM)
    const { restoredFrom: _restoredFrom, ...plainRevision } = REVISION
    const plain = newsRevisionOf(wire({ ...plainRevision, restoredFrom: undefined }))
    expect(plain).toEqual(plainRevision)
    expect(plain).not.toHaveProperty('restoredFrom')
  })

  it('throws on a keyword it has no rule for, rather than letting it pass unchecked', () => {
    expect(() => conforms({ type: 'string', maxLength: 3 }, 'Rain')).toThrow(/maxLength/)
    expect(() => conforms({ type: 'string', format: 'email' }, 'a@b.c')).toThrow(/email/)
  })
})

describe('the wire schemas against the real server', () => {
  let server: ComposedServer

  beforeAll(async () => {
    server = await composeTestServer()
  })

  afterAll(async () => {
    await server.close()
    removeTempDirs()
  })

  it('accept every post, trashed post and revision the server serialises', async () => {
    const kept = await createPostThroughApi(server, 'Kept')
    const binned = await createPostThroughApi(server, 'Binned')
    const edit = await editThroughApi(server, kept._id, { title: 'Kept, edited' })
    expect(edit.statusCode).toBe(200)
    const restore = await server.app.inject({
      method: 'POST',
      url: `/api/news/${kept._id}/revisions/1/restore`,
    })
    expect(restore.statusCode).toBe(200)
    const removal = await server.app.inject({ method: 'DELETE', url: `/api/news/${binned._id}` })
    expect(removal.statusCode).toBe(204)

    const list = (await server.app.inject('/api/news')).json<unknown[]>()
    const item = (await server.app.inject(`/api/news/${kept._id}`)).json<unknown>()
    const trash = (await server.app.inject('/api/trash')).json<unknown[]>()
    const history = (await server.app.inject(`/api/news/${kept._id}/revisions`)).json<unknown[]>()

    expect(list.map(newsItemOf)).toEqual(list)
    expect(list).toHaveLength(1)
    expect(newsItemOf(item)).toEqual(item)
    expect(newsItemOf(restore.json())).toEqual(restore.json())
    expect(trash.map(trashedNewsItemOf)).toEqual(trash)
    expect(trash).toHaveLength(1)
    expect(history.map(newsRevisionOf)).toEqual(history)
    expect(history.map((revision) => newsRevisionOf(revision)?.action)).toEqual([
      'restore',
      'edit',
      'create',
    ])
  })

  it('accept the stored post a 412 carries as current', async () => {
    const post = await createPostThroughApi(server, 'Guarded')
    const stale = await server.app.inject({
      method: 'PATCH',
      url: `/api/news/${post._id}`,
      headers: { ...JSON_HEADERS, 'if-match': '"rev-9"' },
      payload: { title: 'Too late' },
    })
    expect(stale.statusCode).toBe(412)
    expect(currentItemOf(stale.json())).toEqual(post)
  })
})
