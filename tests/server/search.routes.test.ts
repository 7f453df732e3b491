import type { NewsItem } from '@/domain/news-item.entity'
import { SEARCH_LIMITS, SEARCH_RULE, TOO_MANY_TERMS } from '@/domain/rules/search-query.rules'
import { encodeCursor } from '@/adapters/shared/keyset-cursor'
import {
  createPostThroughApi,
  describeOnDatabases,
  useDatabase,
  useServer,
  followPages,
  editThroughApi,
} from './server-fixture'

const CONTROL = SEARCH_RULE.characters.message
const EMPTY = SEARCH_RULE.required
const TOO_LONG = SEARCH_RULE.maxLength.message
const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`).join(' ')

/** `GET /api/news?q=` through the real app, on every engine the suite has. */
describeOnDatabases('GET /api/news?q= on $name', (kind) => {
  const { app } = useServer({ database: useDatabase(kind) })

  beforeEach(async () => {
    for (;;) {
      const page = (await app.inject('/api/news?limit=100')).json<NewsItem[]>()
      if (page.length === 0) return
      for (const item of page) await app.inject({ method: 'DELETE', url: `/api/news/${item._id}` })
    }
  })

  function publish(title: string, body = 'Nothing to see.', author = 'Ada') {
    return createPostThroughApi({ app }, title, { body, author })
  }

  const search = (q: string, rest = '') => app.inject(`/api/news?q=${encodeURIComponent(q)}${rest}`)

  async function titles(q: string): Promise<string[]> {
    const response = await search(q)
    expect(response.statusCode).toBe(200)
    return response.json<NewsItem[]>().map((item) => item.title)
  }

  it('finds posts by any word of title, body or author, title matches first, newest first within', async () => {
    await publish('Weather', 'A storm reached the harbour.')
    await publish('Harbour closes', 'Because of the storm.')
    await publish('Storm over the harbour')
    await publish('Markets', 'Quiet.', 'Storm Harbour')
    await publish('Unrelated')
    expect(await titles('storm harbour')).toEqual([
      'Storm over the harbour',
      'Harbour closes',
      'Markets',
      'Weather',
    ])
  })

  it('ignores case and accents: CAFE finds café, and café finds CAFE', async () => {
    await publish('Le café du port')
    await publish('CAFE OPENS LATE')
    await publish('Tea')
    expect(await titles('CAFE')).toEqual(['CAFE OPENS LATE', 'Le café du port'])
    expect(await titles('café')).toEqual(['CAFE OPENS LATE', 'Le café du port'])
  })

  it.each([
    ['oresund', 'Øresund bridge reopens'],
    ['lodz', 'Łódź film school'],
    ['oeuvre', 'A life’s œuvre on show'],
    ['aero', 'Ærø ferry timetable'],
    ['dakovo', 'Đakovo cathedral'],
    ['hamrun', 'Ħamrun market'],
    ['istanbul', 'Kuzey ıstanbul'],
    ['strasse', 'Straße closed'],
    ['thorshofn', 'Þórshöfn harbour'],
    ['gardur', 'Garður lighthouse'],
    ['naive', 'Naïve question'],
  ])('folds every Latin letter alike in posts and queries: %s finds %s', async (query, title) => {
    await publish(title)
    await publish('Unrelated')
    expect(await titles(query)).toEqual([title])
    expect(await titles(title)).toEqual([title])
  })

  it('pages with the list’s limit and a Link rel="next" that keeps q, until none remain', async () => {
    const expected: string[] = []
    for (let index = 0; index < 5; index += 1)
      expected.unshift((await publish(`Tide ${index}`)).title)
    await publish('Unrelated')
    const first = '/api/news?q=tide%20TIDE&limit=2'
    const { items, links } = await followPages<NewsItem>((url) => app.inject(url), first)
    expect(items.map((item) => item.title)).toEqual(expected)
    expect(links).toHaveLength(2)
    for (const link of links) {
      expect(link).toMatch(/^<\/api\/news\?q=tide%20TIDE&limit=2&cursor=[^>]+>; rel="next"$/)
    }
  })

  it('answers 24 results by default with a Link while more remain, like the list', async () => {
    for (let index = 0; index < 25; index += 1) await publish(`Tide ${index}`)
    const response = await search('tide')
    expect(response.json<NewsItem[]>()).toHaveLength(24)
    expect(response.headers.link).toMatch(/^<\/api\/news\?q=tide&limit=24&cursor=/)
    expect(response.headers.etag).toEqual(expect.any(String))
    const again = await app.inject({
      url: '/api/news?q=tide',
      headers: { 'if-none-match': response.headers.etag as string },
    })
    expect(again.statusCode).toBe(304)
  })

  it('finds an edited post by its new words at once, a trashed one no more, a restored one again', async () => {
    const item = await publish('Harbour reopens', 'Boats are back.')
    const edit = await editThroughApi({ app }, item._id, { title: 'Bridge reopens' })
    expect(edit.statusCode).toBe(200)
    expect(await titles('bridge')).toEqual(['Bridge reopens'])
    expect(await titles('harbour')).toEqual([])
    expect(await titles('boats')).toEqual(['Bridge reopens'])

    await app.inject({ method: 'DELETE', url: `/api/news/${item._id}` })
    expect(await titles('bridge')).toEqual([])
    await app.inject({ method: 'POST', url: `/api/news/${item._id}/restore` })
    expect(await titles('bridge')).toEqual(['Bridge reopens'])
  })

  it.each<[string, string, Record<string, string>]>([
    ['an empty q', '', { q: EMPTY }],
    ['a blank q', ' \u00a0 ', { q: EMPTY }],
    ['201 characters', 'a'.repeat(201), { q: TOO_LONG }],
    ['500 characters', 'harbour '.repeat(63).slice(0, 500), { q: TOO_LONG }],
    ['a NUL', 'a\u0000b', { q: CONTROL }],
    ['a tab', 'a\tb', { q: CONTROL }],
    ['a line break', 'a\nb', { q: CONTROL }],
    ['an escape sequence', '\u001b[31mred', { q: CONTROL }],
    ['a bidi override', '\u202eevil', { q: CONTROL }],
    ['a C1 control', 'a\u0085b', { q: CONTROL }],
    ['one word too many', words(SEARCH_LIMITS.terms + 1), { q: TOO_MANY_TERMS }],
    // Each word adds its posts to every tier's read: seven common words cost a search too much.
    ['seven different words', words(7), { q: 'Search for at most 6 different words' }],
  ])('refuses %s with a 400 naming q', async (_name, q, errors) => {
    const response = await search(q)
    expect(response.statusCode).toBe(400)
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8')
    expect(response.json()).toMatchObject({ status: 400, errors })
  })

  it.each([
    ['200 characters', 'a'.repeat(200)],
    ['as many different words as allowed', words(SEARCH_LIMITS.terms)],
    ['one word 30 times', 'tide '.repeat(30)],
    ['a double quote', '"'],
    ['an unclosed quote', '"tide'],
    ['single quotes', "''tide''"],
    ['FTS5 operators', 'tide AND NOT x OR NEAR(x)'],
    ['FTS5 syntax', '* ^tide title:tide {title body}: tide - (tide) + tide*'],
    ['tsquery syntax', "!tide & (a | b) <-> c:* 'd':A"],
    ['websearch syntax', '"tide tide" -or or'],
    ['SQL', "'; drop table news; --"],
    ['LIKE wildcards and a backslash', '%_\\'],
    ['only punctuation', '!!! ??? ...'],
    ['an emoji', '👩🏽‍🚀'],
    ['a replacement character', '\ufffd'],
    ['a zero-width joiner and a BOM', 'ti\u200dde \ufeff'],
    ['right-to-left text with its marks', '\u200fשלום \u2067عربى\u2069'],
  ])('answers 200 to %s', async (_name, q) => {
    await publish('Tide tables')
    const response = await search(q)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(expect.any(Array))
  })

  it.each([
    ['a lone high surrogate', '%ED%A0%80'],
    ['a lone low surrogate', '%ED%BF%BF'],
    ['bytes that are not UTF-8', '%FF%FE'],
    ['a cut escape', 'tide%'],
    ['a JavaScript escape', '%uD800'],
  ])('answers 200 or 400, never 5xx, to %s', async (_name, raw) => {
    const response = await app.inject(`/api/news?q=${raw}`)
    expect([200, 400]).toContain(response.statusCode)
  })

  it('finds the post whose words a quoted, operator-laden query holds', async () => {
    await publish('Rock and roll', 'Not near the end.')
    expect(await titles('"rock" AND "roll"')).toEqual(['Rock and roll'])
    expect(await titles('NOT near')).toEqual(['Rock and roll'])
  })

  it.each([
    ['q given twice', '/api/news?q=a&q=b', { q: 'Must be given once' }],
    [
      'a list cursor',
      `/api/news?q=a&cursor=${encodeCursor({ at: '2026-01-01T00:00:00.000Z', id: 'abc' })}`,
      { cursor: expect.any(String) },
    ],
    ['limit=0', '/api/news?q=a&limit=0', { limit: expect.any(String) }],
    ['limit=101', '/api/news?q=a&limit=101', { limit: expect.any(String) }],
  ])('refuses %s with a 400', async (_name, url, errors) => {
    const response = await app.inject(url)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ status: 400, errors })
  })
})
