import fc, { type Arbitrary } from 'fast-check'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { CONTACT_LIMITS } from '@/domain/rules/contact-message.rules'
import { NEWS_LIMITS } from '@/domain/rules/news-item.rules'
import { OUTBOX_PATH } from '@/server/routes/outbox.routes'
import { OUTBOX_IDS } from '@/server/services/server-config'
import { JSON_HEADERS, SITE_ORIGIN } from '../server-fixture'

type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS'
/** A request as `app.inject` takes it, kept plain so that a failure prints as it was sent. */
export interface FuzzRequest {
  readonly method: Method
  readonly url: string
  readonly headers: Record<string, string>
  readonly payload?: string | Buffer
}

/** What the seeding's answers revealed: real ids, cursors, ETags and editors to aim at. */
export interface Learned {
  readonly ids: string[]
  readonly cursors: string[]
  readonly etags: string[]
  readonly editors: string[]
}

/**
 * Publishes 30 posts with an edit each, trashes two, and reads a page of every paged list,
 * learning from the answers. The values come in the same order on every run, so that a seed
 * picks the same post, page or version again on a fresh server.
 */
export async function seedAndLearn(app: FastifyInstance): Promise<Learned> {
  const learned: Learned = { ids: [], cursors: [], etags: [], editors: [] }
  const send = async (request: InjectOptions | string) => learn(learned, await app.inject(request))
  const json = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    send({ method, url, headers: JSON_HEADERS, payload })
  for (let index = 0; index < 30; index += 1) {
    await json('POST', '/api/news', { title: `Post ${index}`, body: 'Body', author: 'Ada' })
    await json('PATCH', `/api/news/${learned.ids.at(-1)}`, { body: 'Edited' })
  }
  const [first, second, third] = learned.ids
  await send({ method: 'DELETE', url: `/api/news/${first}` })
  await send({ method: 'DELETE', url: `/api/news/${second}` })
  for (const url of ['/api/news?limit=5', '/api/news?q=post&limit=5', '/api/trash?limit=1']) {
    await send(url)
  }
  await send(`/api/news/${third}/revisions?limit=1`)
  await send('/api/changes?limit=5')
  return learned
}

function learn(learned: Learned, response: LightMyRequestResponse): void {
  const add = (list: string[], value: string | undefined) => {
    if (value !== undefined && !list.includes(value)) list.push(value)
  }
  const cursor = /[?&]cursor=([^&>]+)/.exec(String(response.headers.link ?? ''))?.[1]
  if (cursor !== undefined) add(learned.cursors, decodeURIComponent(cursor))
  if (typeof response.headers.etag === 'string') add(learned.etags, response.headers.etag)
  if (response.statusCode === 201) add(learned.ids, /"_id":"([\w-]+)"/.exec(response.body)?.[1])
  for (const [, editor] of response.body.matchAll(/"editor":"([^"]+)"/g)) {
    add(learned.editors, editor)
  }
}

const given = <T extends string>(value: T | Arbitrary<T>) =>
  typeof value === 'string' ? fc.constant(value) : value
/** Strings joined: each part a constant or an arbitrary. */
const join = (...parts: Array<string | Arbitrary<string>>): Arbitrary<string> =>
  fc.tuple(...parts.map(given)).map((texts) => texts.join(''))
/** One of the words of `list`. */
const words = (list: string) => fc.constantFrom(...list.split(' '))

/** Present one time in `1 + absent`, and shrunk away first. */
const sometimes = <T>(arbitrary: Arbitrary<T>, absent = 4): Arbitrary<T | undefined> =>
  fc.oneof(
    { withCrossShrink: true },
    { weight: absent, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary },
  )
/** Absent one time in ten. */
const mostly = <T>(arbitrary: Arbitrary<T>) => fc.option(arbitrary, { freq: 10, nil: undefined })

/** Characters that make text hostile: controls, separators, bidi controls, lone surrogates. */
const HOSTILE = [
  ...'\0\x01\x07\b\t\n\r\v\x1b\x7f\x85\x9f\xa0\u200b\u200d\u200e\u2028\u2029\u202e\u2066\ufeff',
  ...['\ud800', '\udfff', '👩🏽‍🚀', ...'\ufffd\uffff"\\\'<%/?#& '],
]
const char = (unit: 'grapheme' | 'grapheme-ascii' | 'binary') =>
  fc.string({ unit, minLength: 1, maxLength: 1 })
const unit = fc.oneof(
  { weight: 6, arbitrary: char('grapheme-ascii') },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: char('grapheme') },
  { weight: 1, arbitrary: char('binary') },
)
const shortText = (maxLength: number) => fc.string({ unit, maxLength, size: 'max' })
const FIELD_LIMITS = [...new Set([...Object.values(NEWS_LIMITS), ...Object.values(CONTACT_LIMITS)])]
/** Mostly short, often at a field's limit, now and then past the 16 KiB body limit. */
const text = fc.oneof(
  { weight: 30, arbitrary: fc.oneof(shortText(12), shortText(120), shortText(600)) },
  {
    weight: 10,
    arbitrary: fc
      .constantFrom(...FIELD_LIMITS)
      .chain((limit) => fc.string({ unit, minLength: limit - 1, maxLength: limit + 1 })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(shortText(8), fc.integer({ min: 16_000, max: 40_000 }))
      .map(([seed, length]) => (seed || 'x').repeat(length).slice(0, length)),
  },
)
/** Words a visitor might type, within the limits mostly. */
const plainText = fc
  .array(words('news Ada été 👍 world — a.b "quoted" \n Zürich 東京'), {
    maxLength: 20,
    size: 'max',
  })
  .map((list) => list.join(' '))
/** What an HTTP client can put in a header: visible ASCII, and Latin-1 now and then. */
const headerText = fc.string({
  unit: fc.oneof(
    { weight: 9, arbitrary: char('grapheme-ascii') },
    fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)),
  ),
  maxLength: 300,
  size: 'max',
})
const repeated = (char: string, ...lengths: number[]) =>
  fc.constantFrom(...lengths).map((length) => char.repeat(length))

const LONE_SURROGATE = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/
const hex = (byte: number) => `%${byte.toString(16).toUpperCase()}`
/**
 * encodeURIComponent, which throws on a lone surrogate: that goes as the UTF-8 bytes it would
 * have (%ED%A0%80 and the like), which no decoder accepts.
 */
const encoded = (value: string): string =>
  value
    .split(LONE_SURROGATE)
    .map((part, index) => {
      if (index % 2 === 0) return encodeURIComponent(part)
      const code = part.charCodeAt(0)
      return `%ED${hex(0x80 | ((code >> 6) & 0x3f))}${hex(0x80 | (code & 0x3f))}`
    })
    .join('')
const base64url = (value: string | Uint8Array) => Buffer.from(value).toString('base64url')

const ODD_IDS = '%00 %ff%fe %C0%AF %2F .. %2e%2e %20 %E2%80%AE %F0%9F%91%8D % %zz 💥 null 0 -1'
const REVISIONS = '0 -1 01 1.5 1e3 abc 2147483648 4294967296 9007199254740993 99999999999999999999'
const LIMITS = '1 2 24 100 101 0 -1 1.5 1e2 99999999999999999999999 NaN Infinity abc %00 0x10'
const INSTANTS = [
  ...['0000-01-01', '0001-01-01', '1970-01-01', '9999-12-31', '2026-01-01', '2026-02-30'],
  ...['+10000-01-01', '-000001-01-01', '2026-13-01', '2026-01-01T24:00:00.000Z', 'NaN'],
  ...['2026-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
].map((day) => (/^[+-]?\d+-\d\d-\d\d$/.test(day) ? `${day}T00:00:00.000Z` : day))
/** Search syntax of every engine, quotes and SQL, among words that match the seeded posts. */
const SEARCH_PARTS = [
  ...'post Post body ADA été " \' AND OR NOT NEAR( * ^ : - ( ) {title}: ! & | <-> :* :A % _ \\'.split(
    ' ',
  ),
  "'; drop table news; --",
]
const CONTENT_TYPES = [
  ...['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1'],
  ...['APPLICATION/JSON', 'application/json-patch+json', 'text/plain', '*/*', ';;;', ''],
  ...['application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary='],
  ...['multipart/form-data; boundary=----fuzz', `multipart/form-data; boundary=${'b'.repeat(300)}`],
  ...['multipart/mixed; boundary=----fuzz', 'multipart/form-data; boundary=other'],
]
/** Bodies no serialiser writes: lone surrogates, huge numbers, poisoned keys, deep, broken. */
const RAW_JSON = [
  ...['{"title":"a\\ud800","body":"\\u0000\\udfff","author":"\\ud83d"}', '{"a":1}}', '{"title":'],
  '{"title":"t","body":"b","author":"a","revision":1e400,"x":123456789012345678901234567890}',
  '{"title":"t","body":"b","author":"a","__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}},"title":"t","body":"b","author":"a"}',
  ...[100, 1000, 5000].map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  ...[100, 1000, 3000].map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  ...['', '{', '}', 'null', '[]', '"', 'undefined', '\u0000'],
]
const END = Buffer.from('","body":"b","author":"a"}')
const BAD_UTF8 = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf]]
const ODD_PATHS = [
  ...['/api/health', '/api/config', '/api/openapi.json', '/api', '/api/', '/api/news/', '/'],
  ...['//api/news', '/api/news/a/b/c', '/api/nothing', '/favicon.ico', '/robots.txt', '/metrics'],
  ...['/feed.xml', '/sitemap.xml', '/sitemaps/1.xml', '/sitemaps/..%2f..', '/index.html'],
  ...['/assets/../../etc/passwd', '/assets/%2e%2e/%2e%2e/etc/passwd', '/assets/x.js'],
  ...[10, 2000, 20_000].map((length) => `/${'x'.repeat(length)}`),
]

/** A query of search syntax, hostile text, or one too long or of too many words. */
const search = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.array(fc.constantFrom(...SEARCH_PARTS), { maxLength: 12, size: 'max' }),
        fc.constantFrom(' ', ''),
      )
      .map(([parts, gap]) => parts.join(gap)),
  },
  { weight: 3, arbitrary: shortText(200) },
  fc.constantFrom(10, 11, 40, 100).map((n) => 'post '.repeat(n)),
  fc.constantFrom(10, 11, 40).map((n) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ')),
  fc.string({ unit: fc.constantFrom('a', 'b', ' '), minLength: 200, maxLength: 500 }),
)

interface Body {
  readonly payload?: string | Buffer
  readonly contentType?: string
}

/** No body; now and then a content type all the same. */
const noBody: Arbitrary<Body> = sometimes(fc.constantFrom(...CONTENT_TYPES), 2).map(
  (contentType) => (contentType === undefined ? {} : { contentType }),
)

const field = fc.oneof(text, plainText, plainText, fc.jsonValue({ maxDepth: 3 }))
const draft = fc.record({
  title: mostly(field),
  body: mostly(field),
  author: mostly(field),
  _id: sometimes(field, 9),
  createdAt: sometimes(field, 9),
  revision: sometimes(field, 9),
  extra: sometimes(field, 9),
})
const jsonBody: Arbitrary<Body> = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: draft.map((value) => JSON.stringify(value)) },
      fc.record({ title: plainText, body: plainText, author: plainText }).map(JSON.stringify),
      text.map((body) => JSON.stringify({ title: 'Fuzzed', body, author: 'Fuzz' })),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.constantFrom(...RAW_JSON),
      text,
      fc.uint8Array({ maxLength: 200, size: 'max' }).map((bytes) => Buffer.from(bytes)),
      fc
        .constantFrom(...BAD_UTF8)
        .map((bytes) => Buffer.concat([Buffer.from('{"title":"t'), Buffer.from(bytes), END])),
    ),
    fc.constantFrom('application/json', 'application/json; charset=utf-8'),
  )
  .map(([payload, contentType]) => ({ payload, contentType }))

type Parts = ReadonlyArray<readonly [string, string]>
/** The entries whose value is there. */
const present = (record: Record<string, string | undefined>): Parts =>
  Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined)

const boundary = fc.constantFrom('----fuzz', 'x', 'a'.repeat(70))
const formType = (boundary: string) => `multipart/form-data; boundary=${boundary}`
const form = (boundary: string, parts: Parts) =>
  parts
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('') + `--${boundary}--\r\n`
const outboxId = (id: string) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(id) }, words('wrong'), fc.constant(''))
const ODD_PARTS: Parts[] = [
  ...[20, 40].map((n) => Array.from({ length: n }, (_, i) => [`f${i}`, 'v'] as const)),
  [['__proto__', 'x']],
  [['message', 'x'.repeat(40_000)]],
  [['file"; filename="a.txt', 'bytes']],
]
const oddName = shortText(80).map((name): Parts => [[name, 'v']])
/** The outbox's form as @emailjs/browser sends it: a field missing, or odd parts, now and then. */
const contactForm = fc
  .tuple(
    boundary,
    fc.record({
      name: mostly(shortText(60)),
      email: mostly(fc.oneof(fc.constant('ada@example.com'), shortText(60))),
      message: mostly(text),
      lib_version: mostly(fc.constant('4.4.1')),
      service_id: mostly(outboxId(OUTBOX_IDS.serviceId)),
      template_id: mostly(outboxId(OUTBOX_IDS.templateId)),
      user_id: mostly(outboxId(OUTBOX_IDS.publicKey)),
    }),
    sometimes(fc.oneof(fc.constantFrom(...ODD_PARTS), oddName)),
  )
  .map(([boundary, fields, odd = []]) => ({
    payload: form(boundary, [...present(fields), ...odd]),
    contentType: formType(boundary),
  }))
/** A form, a cut one, or noise. */
const formBody: Arbitrary<Body> = fc.oneof(
  { weight: 3, arbitrary: contactForm },
  fc.tuple(contactForm, fc.nat()).map(([{ payload, contentType }, cut]) => ({
    payload: payload.slice(0, cut % payload.length),
    contentType,
  })),
  fc.tuple(boundary, fc.uint8Array({ maxLength: 300, size: 'max' })).map(([boundary, bytes]) => ({
    payload: Buffer.from(bytes),
    contentType: formType(boundary),
  })),
)

const METHODS: Method[] = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']

/** Requests to every route and page, aimed at what `learned` holds most of the time. */
export function fuzzRequests(learned: Learned): Arbitrary<FuzzRequest> {
  const revision = fc.oneof(fc.integer({ min: 1, max: 4 }).map(String), words(REVISIONS))
  const id = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...learned.ids) },
    fc.string({ unit: words('a b c X Y Z 0 1 9 _ -'), minLength: 1, maxLength: 64, size: 'max' }),
    repeated('a', 63, 64, 65, 100, 101, 500, 5000),
    shortText(200).map(encoded),
    words(ODD_IDS),
  )
  const real = fc.constantFrom(...learned.cursors)
  const cursor = fc.oneof(
    real,
    fc.tuple(real, fc.nat(40)).map(([token, length]) => token.slice(0, length)),
    join(real, fc.constantFrom('x', 'A', '=', '%3D', '-')),
    join(
      fc.constantFrom(...INSTANTS),
      ' ',
      fc.constantFrom(...learned.ids, 'a'.repeat(65), 'a/b', '', '\0', 'é'),
    ).map(base64url),
    join(fc.constantFrom('rev ', 'seq '), revision).map(base64url),
    fc.uint8Array({ maxLength: 90, size: 'max' }).map(base64url),
    shortText(300).map(encoded),
    repeated('A', 119, 120, 121, 10_000),
  )
  const parameter = fc.oneof(
    join('limit=', words(LIMITS)),
    join('cursor=', cursor.map(encoded)),
    join('cursor=', cursor),
    { weight: 2, arbitrary: join('q=', search.map(encoded)) },
    join('editor=', fc.oneof(fc.constantFrom(...learned.editors), shortText(40)).map(encoded)),
    join(shortText(20).map(encoded), '=', shortText(20).map(encoded)),
    words('limit cursor && = limit=1&limit=2 __proto__[x]=1 constructor=1'),
  )
  const query = fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 3,
      arbitrary: fc.array(parameter, { minLength: 1, maxLength: 3 }).map((p) => `?${p.join('&')}`),
    },
  )
  const news = join('/api/news/', id)
  const page = fc.oneof(
    fc.constantFrom('/', '/news/new', '/trash', '/changes', '/contact', '/search'),
    join('/news/', id),
    join('/news/', id, fc.constantFrom('/edit', '/history')),
  )
  const etag = fc.oneof(
    fc.constantFrom(...learned.etags),
    join(fc.constantFrom('"rev-', 'W/"rev-'), revision, fc.constantFrom('"', '-p"')),
    fc.constantFrom('*', '"rev-1", "rev-2", W/"x"', ''),
    headerText,
  )
  const headers = fc.record({
    'if-match': sometimes(etag),
    'if-none-match': sometimes(etag),
    'idempotency-key': sometimes(
      fc.oneof(
        fc.nat(20).map((n) => `key-${n}`),
        repeated('k', 1, 255, 256, 1000),
        fc.constantFrom('', ' '),
        headerText,
      ),
    ),
    'accept-encoding': sometimes(words('br gzip br;q=0,gzip;q=0 * identity x;q=abc')),
    'content-encoding': sometimes(words('gzip br deflate x'), 19),
    // The site's own most of the time, which the outbox wants.
    origin: fc.constantFrom(undefined, SITE_ORIGIN, SITE_ORIGIN, SITE_ORIGIN, 'null', 'http://a.b'),
    host: sometimes(fc.constantFrom('evil.example', '', '[::1]:99999', 'a'.repeat(300)), 19),
  })
  const route = (
    method: Method | Arbitrary<Method>,
    url: string | Arbitrary<string>,
    body: Arbitrary<Body> = noBody,
  ) => fc.record({ method: given(method), url: given(url), body })
  const endpoint = fc.oneof(
    { weight: 2, arbitrary: route('GET', join('/api/news', query)) },
    // A search, and perhaps more.
    {
      weight: 2,
      arbitrary: route(
        'GET',
        join(
          '/api/news?q=',
          search.map(encoded),
          query.map((q) => q.replace('?', '&')),
        ),
      ),
    },
    route('GET', join(news, query)),
    { weight: 2, arbitrary: route('POST', '/api/news', jsonBody) },
    { weight: 2, arbitrary: route('PATCH', news, jsonBody) },
    route('DELETE', news),
    route('GET', join(news, '/revisions', query)),
    route('POST', join(news, '/restore')),
    route('POST', join(news, '/revisions/', revision, '/restore')),
    route('GET', join(fc.constantFrom('/api/trash', '/api/changes'), query)),
    { weight: 2, arbitrary: route('POST', OUTBOX_PATH, formBody) },
    route('GET', join(page, query)),
    // Anything else: another method, another path, any body.
    route(
      fc.constantFrom(...METHODS),
      join(fc.oneof(news, page, fc.constantFrom(...ODD_PATHS, OUTBOX_PATH)), query),
      fc.oneof(noBody, jsonBody, formBody),
    ),
  )
  // A content type other than the body's now and then, or none (null).
  const retyped = sometimes(fc.constantFrom<string | null>(...CONTENT_TYPES, null), 9)
  return fc.tuple(endpoint, headers, retyped).map(([{ method, url, body }, given, type]) => {
    const contentType = type === undefined ? body.contentType : (type ?? undefined)
    const sent = Object.fromEntries(present({ ...given, 'content-type': contentType }))
    const bodyless = method === 'GET' || method === 'HEAD' || body.payload === undefined
    return bodyless
      ? { method, url, headers: sent }
      : { method, url, headers: sent, payload: body.payload }
  })
}

/** The request as a line that can be pasted into a test: payloads as JSON text or base64. */
export function describeRequest({ method, url, headers, payload }: FuzzRequest): string {
  const cut = (value: string) =>
    value.length > 2000 ? `${value.slice(0, 2000)}… (${value.length} characters)` : value
  const body = Buffer.isBuffer(payload)
    ? `Buffer.from('${payload.toString('base64')}', 'base64')`
    : JSON.stringify(payload === undefined ? undefined : cut(payload))
  return `${JSON.stringify({ method, url: cut(url), headers })}, payload: ${body}`
}
