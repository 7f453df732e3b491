import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { createPostThroughApi, describeOnDatabases, useDatabase } from './server-fixture'
import { get, siteOn, useTwoSites, type RenderingSite } from './support/rendering-sites'

const KEPT_PAGE = 'public, max-age=0, s-maxage=5, stale-while-revalidate=60'

describeOnDatabases('the page cache on $name', (kind) => {
  const database = useDatabase(kind, { perTest: true })
  const sites = useTwoSites(database)

  it('renders the list once, and serves it again, compressed, with an ETag, until a write', async () => {
    await createPostThroughApi(sites.a.server, 'Harbour opens')
    const first = await get(sites.a.server, '/')
    const again = await get(sites.a.server, '/', { 'accept-encoding': 'br' })
    const gzipped = await get(sites.a.server, '/', { 'accept-encoding': 'gzip' })

    expect(sites.a.renders).toEqual(['/'])
    expect(first.statusCode).toBe(200)
    expect(first.headers['cache-control']).toBe(KEPT_PAGE)
    expect(first.headers.etag).toMatch(/^W\/"page-\d+-[\w-]+"$/)
    expect(again.headers.etag).toBe(first.headers.etag)
    expect(again.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(again.rawPayload).toString()).toBe(first.body)
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(first.body)
    expect(first.body).toContain('Harbour opens')
  })

  it('answers 304 to the ETag it gave, without rendering, and a fresh page after a write', async () => {
    const post = await createPostThroughApi(sites.a.server, 'Harbour opens')
    const first = await get(sites.a.server, `/news/${post._id}`)
    const etag = String(first.headers.etag)

    const notModified = await get(sites.a.server, `/news/${post._id}`, { 'if-none-match': etag })
    expect(notModified.statusCode).toBe(304)
    expect(notModified.headers['cache-control']).toBe(KEPT_PAGE)
    expect(sites.a.renders).toHaveLength(1)

    await createPostThroughApi(sites.a.server, 'Ferry delayed')
    const changed = await get(sites.a.server, `/news/${post._id}`, { 'if-none-match': etag })
    expect(changed.statusCode).toBe(200)
    expect(changed.headers.etag).not.toBe(etag)
    expect(sites.a.renders).toHaveLength(2)
  })

  it('shows a write made on another server at the next read, on every server', async () => {
    await createPostThroughApi(sites.a.server, 'Harbour opens')
    expect((await get(sites.a.server, '/')).body).toContain('Harbour opens')
    expect((await get(sites.b.server, '/')).body).toContain('Harbour opens')

    await createPostThroughApi(sites.b.server, 'Ferry delayed')

    expect((await get(sites.a.server, '/')).body).toContain('Ferry delayed')
    expect((await get(sites.b.server, '/')).body).toContain('Ferry delayed')
    expect(sites.a.renders).toEqual(['/', '/'])
  })

  it('keeps the feed and the sitemap until a write on either server, and revalidates them without a read', async () => {
    await createPostThroughApi(sites.a.server, 'Harbour opens')
    const { sitemapFiles } = sites.a.server.app
    if (sitemapFiles === undefined) throw new Error('A database’s app has sitemap files')
    // The feed reads the list; the sitemap reads its file's posts.
    const readsOf = {
      '/feed.xml': vi.spyOn(sites.a.server.app.useCases.listNews, 'execute'),
      '/sitemap.xml': vi.spyOn(sitemapFiles, 'file'),
    }
    for (const path of ['/feed.xml', '/sitemap.xml'] as const) {
      const reads = readsOf[path]
      const first = await get(sites.a.server, path)
      const again = await get(sites.a.server, path, { 'accept-encoding': 'gzip' })
      const revalidated = await get(sites.a.server, path, {
        'if-none-match': String(first.headers.etag),
      })

      expect(first.statusCode).toBe(200)
      expect(first.body).toContain('https://news.example.com/news/')
      expect(gunzipSync(again.rawPayload).toString()).toBe(first.body)
      expect(again.headers.etag).toBe(first.headers.etag)
      expect(revalidated.statusCode).toBe(304)
      expect(reads.mock.calls.length, path).toBeGreaterThan(0)
      const built = reads.mock.calls.length
      await get(sites.a.server, path)
      expect(reads.mock.calls.length, `${path} read again while nothing changed`).toBe(built)

      await createPostThroughApi(sites.b.server, `Ferry returns ${path}`)
      const after = await get(sites.a.server, path)
      expect(after.headers.etag).not.toBe(first.headers.etag)
      if (path === '/feed.xml') expect(after.body).toContain(`Ferry returns ${path}`)
    }
  })

  it('renders once for reads of one page that arrive together', async () => {
    await createPostThroughApi(sites.a.server, 'Harbour opens')
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(sites.a.server, '/')))

    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200))
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1)
    expect(sites.a.renders).toEqual(['/'])
  })
})

describe('pages the cache never keeps', () => {
  let site: RenderingSite
  let id: string
  beforeAll(async () => {
    site = await siteOn('sqlite::memory:')
    id = (await createPostThroughApi(site.server, 'Harbour opens'))._id
  })
  afterAll(() => site.server.close())

  it.each([
    ['the add form', () => '/news/new'],
    ['the edit form', () => `/news/${id}/edit`],
    ['the contact form', () => '/contact'],
    ['a search with another query', () => '/search?q=harbour&utm_source=mail'],
    ['a history', () => `/news/${id}/history`],
    ['the trash', () => '/trash'],
    ['a list address with another query', () => '/?utm_source=mail'],
  ])('renders %s for each request, with no ETag and no-cache', async (_name, url) => {
    const before = site.renders.length
    const first = await get(site.server, url())
    const second = await get(site.server, url())

    expect(site.renders.length - before).toBe(2)
    expect(first.headers.etag).toBeUndefined()
    expect(second.headers['cache-control']).toBe('no-cache')
  })
})

describe('the memory bound', () => {
  it('keeps at most PAGE_CACHE_MB, the least recently read page out first', async () => {
    const site = await siteOn('sqlite::memory:', { PAGE_CACHE_MB: '1' })
    try {
      // 150 articles of some 450 characters: well over a megabyte as they are rendered.
      const ids: string[] = []
      for (let n = 0; n < 150; n += 1) {
        const post = await createPostThroughApi(site.server, `Post ${n}`, {
          body: `Ships came in on day ${n}. `.repeat(18).trim(),
        })
        ids.push(post._id)
      }
      for (const id of ids) await get(site.server, `/news/${id}`)
      const cache = site.server.app.pageCache
      expect(cache.bytes).toBeGreaterThan(0)
      expect(cache.bytes).toBeLessThanOrEqual(1024 * 1024)

      // The newest read is still kept; the first, read longest ago, is out.
      const rendered = site.renders.length
      await get(site.server, `/news/${ids.at(-1)}`)
      expect(site.renders.length).toBe(rendered)
      await get(site.server, `/news/${ids[0]}`)
      expect(site.renders.length).toBe(rendered + 1)
    } finally {
      await site.server.close()
    }
  })

  it('holds a page in an encoding only once a client asked for it in that one', async () => {
    const site = await siteOn('sqlite::memory:')
    try {
      await createPostThroughApi(site.server, 'Harbour opens')
      const cache = site.server.app.pageCache
      const plain = await get(site.server, '/')
      const bodyOnly = cache.bytes
      const br = await get(site.server, '/', { 'accept-encoding': 'br' })
      const withBrotli = cache.bytes
      await get(site.server, '/', { 'accept-encoding': 'br' })
      expect(cache.bytes).toBe(withBrotli)
      const gzipped = await get(site.server, '/', { 'accept-encoding': 'gzip, br;q=0.5' })

      expect(site.renders).toEqual(['/'])
      expect(withBrotli - bodyOnly).toBe(br.rawPayload.length)
      expect(cache.bytes - withBrotli).toBe(gzipped.rawPayload.length)
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body)
      expect(gunzipSync(gzipped.rawPayload).toString()).toBe(plain.body)
    } finally {
      await site.server.close()
    }
  })

  it('keeps nothing with PAGE_CACHE_MB=0, and answers every page as before', async () => {
    const site = await siteOn('sqlite::memory:', { PAGE_CACHE_MB: '0' })
    try {
      await get(site.server, '/')
      const second = await get(site.server, '/')
      expect(site.renders).toEqual(['/', '/'])
      expect(second.statusCode).toBe(200)
      expect(second.headers['cache-control']).toBe('no-cache')
    } finally {
      await site.server.close()
    }
  })
})
