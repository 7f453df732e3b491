import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { unavailable } from '@/domain/domain-error'
import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { fail } from '@/domain/result'
import { createPostThroughApi, describeOnDatabases, useDatabase } from './server-fixture'
import { get, siteOn, useTwoSites, type RenderingSite } from './support/rendering-sites'

describeOnDatabases('search pages kept by the site’s version on $name', (kind) => {
  const database = useDatabase(kind, { perTest: true })
  const sites = useTwoSites(database)

  it('renders a search once and answers it again, compressed, with an ETag, until a write', async () => {
    await createPostThroughApi(sites.a.server, 'Harbour opens')
    const first = await get(sites.a.server, '/search?q=harbour')
    const again = await get(sites.a.server, '/search?q=harbour', { 'accept-encoding': 'br' })
    const revalidated = await get(sites.a.server, '/search?q=harbour', {
      'if-none-match': String(first.headers.etag),
    })

    expect(sites.a.renders).toEqual(['/search?q=harbour'])
    expect(first.statusCode).toBe(200)
    expect(first.body).toContain('Harbour opens')
    expect(first.headers.etag).toMatch(/^W\/"page-\d+-[\w-]+"$/)
    // Never kept by a CDN without asking: a search must not outlive the version it was made at.
    expect(first.headers['cache-control']).toBe('no-cache')
    expect(brotliDecompressSync(again.rawPayload).toString()).toBe(first.body)
    expect(revalidated.statusCode).toBe(304)
    expect(sites.a.renders).toHaveLength(1)
  })

  it('shows a post written on another server at the next search, on every server', async () => {
    await createPostThroughApi(sites.a.server, 'Harbour opens')
    expect((await get(sites.a.server, '/search?q=harbour')).body).not.toContain('Harbour ferry')
    expect((await get(sites.b.server, '/search?q=harbour')).body).not.toContain('Harbour ferry')

    await createPostThroughApi(sites.b.server, 'Harbour ferry returns')

    expect((await get(sites.a.server, '/search?q=harbour')).body).toContain('Harbour ferry returns')
    expect((await get(sites.b.server, '/search?q=harbour')).body).toContain('Harbour ferry returns')
    expect(sites.a.renders).toEqual(['/search?q=harbour', '/search?q=harbour'])
  })

  it('keeps each query apart, its case too, as each shows its own heading', async () => {
    await createPostThroughApi(sites.a.server, 'Harbour opens', { body: 'The ferry docks.' })
    const harbour = await get(sites.a.server, '/search?q=harbour')
    const ferry = await get(sites.a.server, '/search?q=ferry')
    const shouted = await get(sites.a.server, '/search?q=HARBOUR')

    expect(harbour.body).toContain('Results for “<bdi>harbour</bdi>”')
    expect(ferry.body).toContain('Results for “<bdi>ferry</bdi>”')
    expect(shouted.body).toContain('Results for “<bdi>HARBOUR</bdi>”')
    expect(sites.a.renders).toHaveLength(3)
  })

  it('keeps a later page of results under its cursor, apart from the first', async () => {
    for (let n = 0; n <= DEFAULT_PAGE_SIZE; n += 1)
      await createPostThroughApi(sites.a.server, `Harbour ${n}`)
    const first = await get(sites.a.server, '/search?q=harbour')
    const next = /href="(\/search\?q=harbour&amp;cursor=[^"]+)" rel="next"/.exec(first.body)?.[1]
    if (next === undefined) throw new Error('the first page links no next page')
    const later = next.replaceAll('&amp;', '&')

    const once = await get(sites.a.server, later)
    const again = await get(sites.a.server, later)

    expect(once.statusCode).toBe(200)
    expect(once.headers.etag).toBeDefined()
    expect(again.body).toBe(once.body)
    expect(once.body).toContain('Harbour 0')
    expect(first.body).not.toContain('Harbour 0<')
    expect(sites.a.renders).toEqual(['/search?q=harbour', later])
  })

  it('renders once for reads of one search that arrive together', async () => {
    await createPostThroughApi(sites.a.server, 'Harbour opens')
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => get(sites.a.server, '/search?q=harbour')),
    )

    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1)
    expect(sites.a.renders).toEqual(['/search?q=harbour'])
  })
})

describe('search pages the cache never keeps', () => {
  let site: RenderingSite
  beforeAll(async () => {
    site = await siteOn('sqlite::memory:')
    await createPostThroughApi(site.server, 'Harbour opens')
  })
  afterAll(() => site.server.close())

  it.each([
    ['a search address with another query', '/search?q=harbour&utm_source=mail'],
    ['a search written otherwise than its form writes it', '/search?q=harbour%20ferry'],
    ['a query the rules refuse', '/search?q=one+two+three+four+five+six+seven'],
    ['the search page with no query', '/search'],
  ])('renders %s for each request, with no ETag', async (_name, url) => {
    const before = site.renders.length
    const first = await get(site.server, url)
    const second = await get(site.server, url)

    expect(first.statusCode).toBe(200)
    expect(site.renders.length - before).toBe(2)
    expect(first.headers.etag).toBeUndefined()
    expect(second.headers['cache-control']).toBe('no-cache')
  })

  it('compresses a search rendered for one request as the browser accepts, and says it varies so', async () => {
    const url = '/search?q=harbour&utm_source=mail'
    const plain = await get(site.server, url)
    const br = await get(site.server, url, { 'accept-encoding': 'br' })
    const gzipped = await get(site.server, url, { 'accept-encoding': 'gzip' })

    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(br.headers['content-encoding']).toBe('br')
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body)
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(plain.body)
    for (const answer of [plain, br, gzipped]) expect(answer.headers.vary).toBe('accept-encoding')
  })

  it('renders a search that failed for each request, for the browser to search again', async () => {
    const searches = vi
      .spyOn(site.server.app.useCases.searchNews, 'execute')
      .mockResolvedValue(fail(unavailable()))
    try {
      const before = site.renders.length
      await get(site.server, '/search?q=ferry')
      const second = await get(site.server, '/search?q=ferry')

      expect(site.renders.length - before).toBe(2)
      expect(second.headers.etag).toBeUndefined()
    } finally {
      searches.mockRestore()
    }
    expect((await get(site.server, '/search?q=ferry')).headers.etag).toBeDefined()
  })
})

describe('the search pages’ share of the memory bound', () => {
  it('keeps searches within a quarter of PAGE_CACHE_MB, so that a flood of queries leaves the list and the articles', async () => {
    const site = await siteOn('sqlite::memory:', { PAGE_CACHE_MB: '1' })
    try {
      // 60 posts of some 450 characters, each found by a word of its own.
      const bodies = Array.from({ length: 60 }, (_, n) =>
        `Ships came in on day ship${n}. `.repeat(16).trim(),
      )
      const posts = []
      for (const [n, body] of bodies.entries()) {
        posts.push(await createPostThroughApi(site.server, `Post ${n}`, { body }))
      }
      const article = `/news/${posts[0]?._id}`
      await get(site.server, '/')
      await get(site.server, article)
      const { pageCache, searchPageCache } = site.server.app
      const rendered = site.renders.length

      for (let n = 0; n < 60; n += 1) await get(site.server, `/search?q=ship${n}`)

      expect(site.renders.length).toBe(rendered + 60)
      expect(searchPageCache.bytes).toBeGreaterThan(0)
      expect(searchPageCache.bytes).toBeLessThanOrEqual(256 * 1024)
      expect(pageCache.bytes + searchPageCache.bytes).toBeLessThanOrEqual(1024 * 1024)
      // The list and the article are still kept; the newest search too, the oldest is out.
      await get(site.server, '/')
      await get(site.server, article)
      await get(site.server, '/search?q=ship59')
      expect(site.renders.length).toBe(rendered + 60)
      await get(site.server, '/search?q=ship0')
      expect(site.renders.length).toBe(rendered + 61)
    } finally {
      await site.server.close()
    }
  })

  it('keeps no search with PAGE_CACHE_MB=0', async () => {
    const site = await siteOn('sqlite::memory:', { PAGE_CACHE_MB: '0' })
    try {
      await createPostThroughApi(site.server, 'Harbour opens')
      await get(site.server, '/search?q=harbour')
      const second = await get(site.server, '/search?q=harbour')

      expect(site.renders).toHaveLength(2)
      expect(second.headers.etag).toBeUndefined()
      expect(second.body).toContain('Harbour opens')
    } finally {
      await site.server.close()
    }
  })
})
