import { OUTBOX_IDS } from '@/server/services/server-config'
import type { SeededRandom } from './seeded-random'

/** A request as `app.inject` takes it, kept plain so that a failure prints as it was sent. */
export interface FuzzRequest {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS'
  readonly url: string
  readonly headers: Record<string, string>
  readonly payload?: string | Buffer
}

/** What earlier answers revealed, so that later requests can aim at real posts and pages. */
export class FuzzState {
  readonly ids: string[] = []
  readonly cursors: string[] = []
  readonly etags: string[] = []

  /** Learns ids, cursors and ETags from an answer. */
  learn(response: {
    readonly statusCode: number
    readonly headers: Record<string, unknown>
    readonly body: string
  }): void {
    const link = response.headers.link
    if (typeof link === 'string') {
      const cursor = /[?&]cursor=([^&>]+)/.exec(link)?.[1]
      if (cursor !== undefined) remember(this.cursors, decodeURIComponent(cursor))
    }
    const etag = response.headers.etag
    if (typeof etag === 'string') remember(this.etags, etag)
    if (response.statusCode === 201) {
      const id = /"_id":"([A-Za-z0-9_-]+)"/.exec(response.body)?.[1]
      if (id !== undefined) remember(this.ids, id)
    }
  }
}

const KEEP = 50

function remember(list: string[], value: string): void {
  if (list.includes(value)) return
  list.push(value)
  if (list.length > KEEP) list.shift()
}

const OUTBOX_PATH = '/api/v1.0/email/send-form'

/** Characters that make text hostile: controls, separators, bidi controls, surrogates, emoji. */
const NASTY_CHARS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u00a0',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u2066',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '👩🏽‍🚀',
  'é',
  'ß',
  '中',
  '"',
  '\\',
  "'",
  '<',
  '%',
  '/',
  '?',
  '#',
  '&',
  ' ',
]

function char(random: SeededRandom): string {
  if (random.chance(0.6)) return String.fromCharCode(random.between(0x21, 0x7e))
  if (random.chance(0.7)) return random.pick(NASTY_CHARS)
  return String.fromCharCode(random.int(0x10000))
}

/** Text of any length up to about 40 KiB, mostly short, with hostile characters mixed in. */
export function text(random: SeededRandom): string {
  // Now and then past the 16 KiB body limit; mostly around the fields' own limits.
  const length = random.chance(0.02)
    ? random.between(16_000, 40_000)
    : random.oneOf([() => random.int(12), () => random.int(120), () => random.int(600), () => 0])
  return random.string(length, () => char(random))
}

/** Text a visitor might type: words, spaces, punctuation and an emoji, within the limits mostly. */
function plainText(random: SeededRandom): string {
  const words = [
    'news',
    'Ada',
    'été',
    '👍',
    'world',
    '—',
    'a.b',
    '"quoted"',
    '\n',
    'Zürich',
    '東京',
  ]
  return random.string(random.int(random.chance(0.9) ? 12 : 120), () => `${random.pick(words)} `)
}

/** A visible-ASCII (or Latin-1) header value: what an HTTP client can put on the wire. */
function headerText(random: SeededRandom, length: number): string {
  return random.string(length, () =>
    random.chance(0.9)
      ? String.fromCharCode(random.between(0x20, 0x7e))
      : String.fromCharCode(random.between(0x80, 0xff)),
  )
}

const LONE_SURROGATE = /([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/

/**
 * encodeURIComponent, which throws on an unpaired surrogate: those go as the UTF-8 bytes they
 * would have (%ED%A0%80 and the like), which no decoder accepts.
 */
function percentEncoded(value: string): string {
  return value
    .split(LONE_SURROGATE)
    .map((part) =>
      LONE_SURROGATE.test(part)
        ? [
            0xe0 | (part.charCodeAt(0) >> 12),
            0x80 | ((part.charCodeAt(0) >> 6) & 0x3f),
            0x80 | (part.charCodeAt(0) & 0x3f),
          ]
            .map((byte) => `%${byte.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(part),
    )
    .join('')
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url')
}

function anyId(random: SeededRandom, state: FuzzState): string {
  if (state.ids.length > 0 && random.chance(0.6)) return random.pick(state.ids)
  return random.oneOf([
    () => random.string(random.between(1, 64), () => random.pick([...'abcXYZ019_-'])),
    () => 'a'.repeat(random.pick([63, 64, 65, 100, 101, 500, 5000])),
    () => percentEncoded(text(random).slice(0, 200)),
    () =>
      random.pick([
        '%00',
        '%ff%fe',
        '%C0%AF',
        '%2F',
        '..',
        '%2e%2e',
        '%20',
        '%E2%80%AE',
        '%F0%9F%91%8D',
        '%',
        '%zz',
        '💥',
        'null',
        'undefined',
        '0',
        '-1',
        "'; drop table news; --",
      ]),
  ])
}

function anyRevision(random: SeededRandom): string {
  return String(
    random.pick([
      '1',
      '2',
      '3',
      '0',
      '-1',
      '01',
      '1.5',
      '1e3',
      'abc',
      '2147483647',
      '2147483648',
      '4294967296',
      '9007199254740993',
      '99999999999999999999',
      '%00',
    ]),
  )
}

/** A cursor: a real one, one re-encoded with another instant or id, a cut one, or noise. */
function anyCursor(random: SeededRandom, state: FuzzState): string {
  const real = state.cursors.length > 0 ? random.pick(state.cursors) : undefined
  const decoded =
    real === undefined ? '2026-01-01T00:00:00.000Z abc' : Buffer.from(real, 'base64url').toString()
  const [, id = 'abc'] = decoded.split(' ')
  return random.oneOf([
    () => real ?? base64url(decoded),
    () => (real ?? base64url(decoded)).slice(0, random.int(40)),
    () => `${real ?? ''}${random.pick(['x', 'A', '=', '%3D', '-'])}`,
    () =>
      base64url(
        `${random.pick([
          '0000-01-01T00:00:00.000Z',
          '0001-01-01T00:00:00.000Z',
          '1969-12-31T23:59:59.999Z',
          '1970-01-01T00:00:00.000Z',
          '9999-12-31T23:59:59.999Z',
          '+10000-01-01T00:00:00.000Z',
          '-000001-01-01T00:00:00.000Z',
          '2026-02-30T00:00:00.000Z',
          '2026-13-01T00:00:00.000Z',
          '2026-01-01T24:00:00.000Z',
          '2026-01-01T00:00:00Z',
          '2026-01-01',
          'NaN',
        ])} ${id}`,
      ),
    () =>
      base64url(
        `2026-01-01T00:00:00.000Z ${random.pick([id, 'a'.repeat(65), 'a/b', '', '\u0000', 'é'])}`,
      ),
    () => base64url(`rev ${anyRevision(random)}`),
    () => base64url(Buffer.from(Array.from({ length: random.int(90) }, () => random.int(256)))),
    () => percentEncoded(text(random).slice(0, 300)),
    () => 'A'.repeat(random.pick([119, 120, 121, 10_000])),
  ])
}

function anyLimit(random: SeededRandom): string {
  return random.pick([
    '1',
    '2',
    '24',
    '100',
    '101',
    '0',
    '-1',
    '1.5',
    '1e2',
    '99999999999999999999999',
    'NaN',
    'Infinity',
    '',
    'abc',
    '%00',
    '0x10',
  ])
}

/** Search syntax of every engine, quotes and SQL, among words that match the seeded posts. */
const SEARCH_PARTS = [
  'post',
  'Post',
  'body',
  'ADA',
  'été',
  '"',
  "'",
  'AND',
  'OR',
  'NOT',
  'NEAR(',
  '*',
  '^',
  ':',
  '-',
  '(',
  ')',
  '{title}:',
  '!',
  '&',
  '|',
  '<->',
  ':*',
  ':A',
  '%',
  '_',
  '\\',
  "'; drop table news; --",
]

/** A search query: the parts above, hostile characters, or one too long or of too many words. */
function anySearch(random: SeededRandom): string {
  return random.oneOf([
    () => random.string(random.int(12), () => `${random.pick(SEARCH_PARTS)} `),
    () => random.string(random.int(12), () => random.pick(SEARCH_PARTS)),
    () => random.string(random.int(30), () => char(random)),
    () => 'post '.repeat(random.pick([10, 11, 40, 100])),
    () => Array.from({ length: random.pick([10, 11, 40]) }, (_, n) => `w${n}`).join(' '),
    () => random.string(random.pick([200, 201, 500]), () => random.pick([...'ab '])),
  ])
}

function query(random: SeededRandom, state: FuzzState): string {
  const parts: string[] = []
  const count = random.int(4)
  for (let index = 0; index < count; index += 1) {
    parts.push(
      random.oneOf([
        () => `limit=${anyLimit(random)}`,
        () => `cursor=${percentEncoded(anyCursor(random, state))}`,
        () => `cursor=${anyCursor(random, state)}`,
        () => `q=${percentEncoded(text(random).slice(0, 200))}`,
        () => `q=${percentEncoded(anySearch(random))}`,
        () =>
          `${percentEncoded(text(random).slice(0, 20))}=${percentEncoded(text(random).slice(0, 20))}`,
        () =>
          random.pick([
            'limit',
            'cursor',
            '&&',
            '=',
            'limit=1&limit=2',
            '__proto__[x]=1',
            'constructor=1',
          ]),
      ]),
    )
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`
}

function path(random: SeededRandom, state: FuzzState): string {
  const id = () => anyId(random, state)
  return random.oneOf([
    () => '/api/news',
    () => '/api/news',
    () => `/api/news/${id()}`,
    () => `/api/news/${id()}`,
    () => `/api/news/${id()}/revisions`,
    () => `/api/news/${id()}/restore`,
    () => `/api/news/${id()}/revisions/${anyRevision(random)}/restore`,
    () => '/api/trash',
    () => OUTBOX_PATH,
    () => OUTBOX_PATH,
    () =>
      random.pick([
        '/api/health',
        '/api/config',
        '/api',
        '/api/',
        '/api/news/',
        '//api/news',
        '/api/news/a/b/c',
        '/api/nothing',
        '/',
        '/contact',
        '/news/new',
        `/news/${id()}`,
        `/news/${id()}/edit`,
        '/trash',
        '/assets/../../etc/passwd',
        '/assets/%2e%2e/%2e%2e/etc/passwd',
        `/${'x'.repeat(random.pick([10, 2000, 20_000]))}`,
        '/favicon.ico',
        '/robots.txt',
      ]),
  ])
}

function etagLike(random: SeededRandom, state: FuzzState): string {
  return random.oneOf([
    () => (state.etags.length > 0 ? random.pick(state.etags) : '"rev-1"'),
    () => `"rev-${anyRevision(random)}"`,
    () => `W/"rev-${anyRevision(random)}"`,
    () => '*',
    () => `"rev-1", "rev-2", W/"x"`,
    () => headerText(random, random.int(300)),
    () => '',
  ])
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=----fuzz',
  `multipart/form-data; boundary=${'b'.repeat(300)}`,
  'multipart/mixed; boundary=----fuzz',
  '*/*',
  ';;;',
  '',
]

function headers(
  random: SeededRandom,
  state: FuzzState,
  contentType: string | undefined,
): Record<string, string> {
  const out: Record<string, string> = {}
  if (random.chance(0.1)) {
    if (random.chance(0.7)) out['content-type'] = random.pick(CONTENT_TYPES)
  } else if (contentType !== undefined) {
    out['content-type'] = contentType
  }
  if (random.chance(0.2)) out['if-match'] = etagLike(random, state)
  if (random.chance(0.2)) out['if-none-match'] = etagLike(random, state)
  if (random.chance(0.2)) {
    out['idempotency-key'] = random.oneOf([
      () => `key-${random.int(20)}`,
      () => headerText(random, random.pick([1, 255, 256, 1000])),
      () => '',
      () => ' ',
    ])
  }
  if (random.chance(0.2)) {
    out['accept-encoding'] = random.pick([
      'br',
      'gzip',
      'br;q=0, gzip;q=0',
      '*',
      'identity',
      'x;q=abc',
    ])
  }
  if (random.chance(0.05)) out['content-encoding'] = random.pick(['gzip', 'br', 'deflate', 'x'])
  if (random.chance(0.05))
    out.origin = random.pick(['https://evil.example', 'null', 'http://localhost'])
  return out
}

/** A JSON value of random shape, some of it hostile: deep, huge, poisoned, of the wrong types. */
function jsonValue(random: SeededRandom, depth = 0): unknown {
  if (depth > 3) return random.chance(0.5) ? text(random).slice(0, 40) : random.int(100)
  return random.oneOf<unknown>([
    () => text(random),
    () => random.pick([0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31]),
    () => random.chance(0.5),
    () => null,
    () => Array.from({ length: random.int(4) }, () => jsonValue(random, depth + 1)),
    () => ({ title: jsonValue(random, depth + 1), body: text(random) }),
  ])
}

function jsonBody(random: SeededRandom): string | Buffer {
  const draft = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    for (const field of ['title', 'body', 'author', '_id', 'createdAt', 'revision', 'extra']) {
      if (random.chance(field.length < 7 ? 0.85 : 0.1)) {
        out[field] = random.oneOf([
          () => text(random),
          () => plainText(random),
          () => plainText(random),
          () => jsonValue(random),
        ])
      }
    }
    return out
  }
  return random.oneOf<string | Buffer>([
    () => JSON.stringify(draft()),
    () => JSON.stringify(draft()),
    () => JSON.stringify(draft()),
    () => JSON.stringify({ title: 'Fuzzed', body: text(random), author: 'Fuzz' }),
    () => JSON.stringify(jsonValue(random)),
    // Escapes JSON.stringify would never write: lone surrogates, NUL, huge numbers.
    () =>
      `{"title":"a\\ud800","body":"\\u0000\\udfff","author":"${random.pick(['x', '\\u0007', '\\ud83d'])}"}`,
    () =>
      `{"title":"t","body":"b","author":"a","revision":1e400,"n":-1e400,"x":123456789012345678901234567890}`,
    () => `{"title":"t","body":"b","author":"a","__proto__":{"polluted":true}}`,
    () => `{"constructor":{"prototype":{"polluted":true}},"title":"t","body":"b","author":"a"}`,
    () => {
      const depth = random.pick([100, 1000, 5000])
      return `${'['.repeat(depth)}${']'.repeat(depth)}`
    },
    () => {
      const depth = random.pick([100, 1000, 3000])
      return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    },
    () => text(random),
    () =>
      random.pick([
        '',
        '{',
        '}',
        'null',
        '[]',
        '"',
        '{"title":',
        'undefined',
        '\u0000',
        '{"a":1}}',
      ]),
    () => Buffer.from(Array.from({ length: random.int(200) }, () => random.int(256))),
    () =>
      Buffer.concat([
        Buffer.from('{"title":"t'),
        Buffer.from(
          random.pick([[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf]]),
        ),
        Buffer.from('","body":"b","author":"a"}'),
      ]),
  ])
}

function formPart(boundary: string, name: string, value: string, filename?: string): string {
  const disposition =
    filename === undefined
      ? `form-data; name="${name}"`
      : `form-data; name="${name}"; filename="${filename}"`
  return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n${value}\r\n`
}

/** A multipart body for the outbox: a form, a broken form, or noise; with its content type. */
interface FormBody {
  readonly payload: string | Buffer
  readonly contentType: string
}

function multipartBody(random: SeededRandom): FormBody {
  const boundary = random.pick(['----fuzz', 'x', 'a'.repeat(70)])
  const contentType = `multipart/form-data; boundary=${boundary}`
  const fields: Array<[string, string]> = [
    ['name', text(random).slice(0, 60)],
    ['email', random.pick(['ada@example.com', text(random).slice(0, 60)])],
    ['message', text(random)],
    ['lib_version', '4.4.1'],
    ['service_id', random.pick([OUTBOX_IDS.serviceId, OUTBOX_IDS.serviceId, 'wrong', ''])],
    ['template_id', random.pick([OUTBOX_IDS.templateId, OUTBOX_IDS.templateId, 'wrong', ''])],
    ['user_id', random.pick([OUTBOX_IDS.publicKey, OUTBOX_IDS.publicKey, 'wrong', ''])],
  ]
  const form = () =>
    fields
      .filter(() => random.chance(0.9))
      .map(([name, value]) => formPart(boundary, name, value))
      .join('') + `--${boundary}--\r\n`
  return random.oneOf<FormBody>([
    () => ({ payload: form(), contentType }),
    () => ({ payload: form(), contentType }),
    () => {
      const whole = form()
      return { payload: whole.slice(0, random.int(whole.length)), contentType }
    },
    () => ({ payload: form(), contentType: `multipart/form-data; boundary=other` }),
    () => ({ payload: form(), contentType: 'multipart/form-data' }),
    () => ({ payload: '', contentType: random.pick(['multipart/form-data', contentType]) }),
    () => ({
      payload:
        Array.from({ length: random.pick([20, 40]) }, (_, index) =>
          formPart(boundary, `f${index}`, 'v'),
        ).join('') + `--${boundary}--\r\n`,
      contentType,
    }),
    () => ({
      payload: formPart(boundary, 'file', 'bytes', 'a.txt') + `--${boundary}--\r\n`,
      contentType,
    }),
    () => ({ payload: formPart(boundary, '__proto__', 'x') + `--${boundary}--\r\n`, contentType }),
    () => ({
      payload: formPart(boundary, 'message', 'x'.repeat(40_000)) + `--${boundary}--\r\n`,
      contentType,
    }),
    () => ({
      payload: `--${boundary}\r\nContent-Disposition: ${text(random).slice(0, 80)}\r\n\r\nv\r\n--${boundary}--\r\n`,
      contentType,
    }),
    () => ({
      payload: Buffer.from(Array.from({ length: random.int(300) }, () => random.int(256))),
      contentType,
    }),
  ])
}

const METHODS: ReadonlyArray<FuzzRequest['method']> = [
  'GET',
  'HEAD',
  'POST',
  'PATCH',
  'PUT',
  'DELETE',
  'OPTIONS',
]

type Body = 'none' | 'json' | 'form'

/** The routes a client is meant to call, each with the kind of body it takes. */
function endpoint(
  random: SeededRandom,
  state: FuzzState,
): { method: FuzzRequest['method']; url: string; body: Body } {
  const id = () => anyId(random, state)
  const listQuery = () => (random.chance(0.6) ? query(random, state) : '')
  return random.oneOf<{ method: FuzzRequest['method']; url: string; body: Body }>([
    () => ({ method: 'GET', url: `/api/news${listQuery()}`, body: 'none' }),
    () => ({ method: 'GET', url: `/api/news/${id()}${listQuery()}`, body: 'none' }),
    () => ({ method: 'POST', url: '/api/news', body: 'json' }),
    () => ({ method: 'POST', url: '/api/news', body: 'json' }),
    () => ({ method: 'PATCH', url: `/api/news/${id()}`, body: 'json' }),
    () => ({ method: 'PATCH', url: `/api/news/${id()}`, body: 'json' }),
    () => ({ method: 'DELETE', url: `/api/news/${id()}`, body: 'none' }),
    () => ({ method: 'GET', url: `/api/news/${id()}/revisions${listQuery()}`, body: 'none' }),
    () => ({ method: 'POST', url: `/api/news/${id()}/restore`, body: 'none' }),
    () => ({
      method: 'POST',
      url: `/api/news/${id()}/revisions/${random.chance(0.5) ? String(random.between(1, 4)) : anyRevision(random)}/restore`,
      body: 'none',
    }),
    () => ({ method: 'GET', url: `/api/trash${listQuery()}`, body: 'none' }),
    () => ({ method: 'POST', url: OUTBOX_PATH, body: 'form' }),
    () => ({ method: 'POST', url: OUTBOX_PATH, body: 'form' }),
    // Anything else: another method, another path.
    () => ({
      method: random.pick(METHODS),
      url: `${path(random, state)}${listQuery()}`,
      body: random.pick<Body>(['none', 'json', 'form']),
    }),
  ])
}

/** One random request, aimed at the API's routes most of the time and anywhere now and then. */
export function fuzzRequest(random: SeededRandom, state: FuzzState): FuzzRequest {
  const { method, url, body } = endpoint(random, state)
  if (body === 'none' || method === 'GET' || method === 'HEAD' || random.chance(0.05)) {
    const contentType = random.chance(0.3) ? random.pick(CONTENT_TYPES) : undefined
    return { method, url, headers: headers(random, state, contentType) }
  }
  if (body === 'form') {
    const { payload, contentType } = multipartBody(random)
    return { method, url, headers: headers(random, state, contentType), payload }
  }
  const contentType = random.pick(['application/json', 'application/json; charset=utf-8'])
  return { method, url, headers: headers(random, state, contentType), payload: jsonBody(random) }
}
/** The request as a line that can be pasted into a test: payloads as JSON text or base64. */
export function describeRequest(request: FuzzRequest): string {
  const payload =
    request.payload === undefined
      ? undefined
      : typeof request.payload === 'string'
        ? request.payload.length > 2000
          ? `${JSON.stringify(request.payload.slice(0, 2000))} … (${request.payload.length} characters)`
          : JSON.stringify(request.payload)
        : `Buffer.from('${request.payload.toString('base64')}', 'base64')`
  return (
    JSON.stringify({
      method: request.method,
      url: request.url.slice(0, 2000),
      headers: request.headers,
    }) + (payload === undefined ? '' : `, payload: ${payload}`)
  )
}
