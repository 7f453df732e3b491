import { brotliDecompressSync } from 'node:zlib'
import type { NewsItem } from '@/domain/news-item.entity'
import { composeOperator } from '@/composition/server/operator.composition'
import type { ComposedServer } from '@/composition/server/server.composition'
import { TOKENS } from '@/composition/server/server.tokens'
import {
  createPostThroughApi,
  composeTestServer,
  testConfig,
  describeOnDatabases,
  useDatabase,
  useServer,
  editThroughApi,
} from './server-fixture'
import { VersionCheck } from '@/server/services/first-page.cache'
import { CLI_TIMEOUT, newsProgram } from './support/news-command'

/**
 * Two servers on one database, each with its own first-page cache, as behind a load balancer:
 * a read on B that begins after a write on A was answered must see it.
 */
describeOnDatabases('two servers on one $name database', (kind) => {
  const database = useDatabase(kind, { perTest: true })
  const { server: a } = useServer({ database, perTest: true })
  const { server: b } = useServer({ database, perTest: true })

  async function titlesOn(server: ComposedServer): Promise<string[]> {
    const response = await server.app.inject('/api/news')
    expect(response.statusCode).toBe(200)
    return response.json<NewsItem[]>().map((item) => item.title)
  }

  /** Counts B's reads of a list page from its store, and of the change signal. */
  function spyOnB() {
    return {
      pages: vi.spyOn(b.container.get(TOKENS.newsStore), 'list'),
      versions: vi.spyOn(b.container.get(TOKENS.changeSignal), 'version'),
    }
  }

  it('shows a post created on A on B, whose first page was cached before', async () => {
    await createPostThroughApi(a, 'Old')
    expect(await titlesOn(b)).toEqual(['Old'])
    await createPostThroughApi(a, 'New')
    expect(await titlesOn(b)).toEqual(['New', 'Old'])
  })

  it('shows an edit made on A on B’s first page', async () => {
    const item = await createPostThroughApi(a, 'Before')
    expect(await titlesOn(b)).toEqual(['Before'])
    const patch = await editThroughApi(a, item._id, { title: 'After' })
    expect(patch.statusCode).toBe(200)
    expect(await titlesOn(b)).toEqual(['After'])
  })

  it('drops a post deleted on A from B’s first page, and shows it again once A restores it', async () => {
    const keep = await createPostThroughApi(a, 'Keep')
    const drop = await createPostThroughApi(a, 'Drop')
    expect(await titlesOn(b)).toEqual(['Drop', 'Keep'])
    expect(
      (await a.app.inject({ method: 'DELETE', url: `/api/news/${drop._id}` })).statusCode,
    ).toBe(204)
    expect(await titlesOn(b)).toEqual([keep.title])
    const restored = await a.app.inject({ method: 'POST', url: `/api/news/${drop._id}/restore` })
    expect(restored.statusCode).toBe(200)
    expect(await titlesOn(b)).toEqual(['Drop', 'Keep'])
  })

  it('shows on B a write made straight through the store by the operator’s composition', async () => {
    expect(await titlesOn(b)).toEqual([])
    const operator = await composeOperator(testConfig({ DATABASE_URL: database.url }))
    try {
      const created = await operator.useCases.createNews.execute({
        title: 'From the CLI',
        body: 'Written without HTTP.',
        author: 'Operator',
      })
      expect(created.ok).toBe(true)
    } finally {
      await operator.close()
    }
    expect(await titlesOn(b)).toEqual(['From the CLI'])
  })

  it(
    'shows on B the posts `npm run news -- restore` brought back from another process',
    async () => {
      const item = await createPostThroughApi(a, 'Vandalised')
      await new Promise((resolve) => setTimeout(resolve, 5))
      const since = new Date()
      await a.app.inject({ method: 'DELETE', url: `/api/news/${item._id}` })
      expect(await titlesOn(b)).toEqual([])
      const restored = await newsProgram(database.url, 'restore', '--since', since.toISOString())
      expect(restored.code, restored.stderr).toBe(0)
      expect(await titlesOn(b)).toEqual(['Vandalised'])
    },
    CLI_TIMEOUT,
  )

  it('gives the same ETags on A and B, and B answers 304 to the tags A gave', async () => {
    const posts: NewsItem[] = []
    for (let i = 0; i < 3; i += 1) posts.push(await createPostThroughApi(a, `Post ${i}`))
    const urls = ['/api/news', '/api/news?limit=2', `/api/news/${posts[0]?._id}`]
    const second = await a.app.inject('/api/news?limit=2')
    const next = /<([^>]+)>; rel="next"/.exec(String(second.headers.link))?.[1]
    expect(next).toBeDefined()
    urls.push(String(next))
    for (const url of urls) {
      const onA = await a.app.inject(url)
      const onB = await b.app.inject(url)
      expect(onA.statusCode).toBe(200)
      expect(onA.headers.etag).toBeDefined()
      expect(onB.headers.etag).toBe(onA.headers.etag)
      const revalidated = await b.app.inject({
        url,
        headers: { 'if-none-match': String(onA.headers.etag) },
      })
      expect(revalidated.statusCode).toBe(304)
    }
  })

  it('changes the ETags B answers once A wrote: the first page, a later page and the post', async () => {
    const older = await createPostThroughApi(a, 'Older')
    await createPostThroughApi(a, 'Newer')
    const first = await b.app.inject('/api/news?limit=1')
    const later = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1]
    expect(later).toBeDefined()
    const urls = ['/api/news', String(later), `/api/news/${older._id}`]
    const before = new Map<string, string>()
    for (const url of urls) before.set(url, String((await b.app.inject(url)).headers.etag))

    const patch = await editThroughApi(a, older._id, { title: 'Older, edited' })
    expect(patch.statusCode).toBe(200)

    for (const url of urls) {
      const response = await b.app.inject({
        url,
        headers: { 'if-none-match': before.get(url) ?? '' },
      })
      expect(response.statusCode, url).toBe(200)
      expect(response.headers.etag, url).not.toBe(before.get(url))
    }
  })

  it('serves the compressed first page from the cache only while nothing changed', async () => {
    for (let i = 0; i < 30; i += 1)
      await createPostThroughApi(a, `Post number ${i} with a longer title`)
    const brotli = async () => {
      const response = await b.app.inject({
        url: '/api/news',
        headers: { 'accept-encoding': 'br' },
      })
      expect(response.headers['content-encoding']).toBe('br')
      const items = JSON.parse(brotliDecompressSync(response.rawPayload).toString('utf8'))
      return (items as NewsItem[]).map((item) => item.title)
    }
    expect((await brotli())[0]).toBe('Post number 29 with a longer title')
    await createPostThroughApi(a, 'Newest')
    expect((await brotli())[0]).toBe('Newest')
  })

  it('answers from memory, with one version check and no page query, while nothing changed', async () => {
    await createPostThroughApi(a, 'Steady')
    const { pages, versions } = spyOnB()
    const first = await b.app.inject('/api/news')
    expect(pages).toHaveBeenCalledTimes(1)
    for (let i = 0; i < 3; i += 1) {
      expect((await b.app.inject('/api/news')).body).toBe(first.body)
    }
    expect(pages).toHaveBeenCalledTimes(1)
    expect(versions).toHaveBeenCalledTimes(4)
    // Other pages are never cached.
    await b.app.inject('/api/news?limit=5')
    await b.app.inject('/api/news?limit=5')
    expect(pages).toHaveBeenCalledTimes(3)
  })

  it('reads the page again, never from memory, while the change signal cannot answer', async () => {
    await createPostThroughApi(a, 'Cached')
    expect(await titlesOn(b)).toEqual(['Cached'])
    const { pages, versions } = spyOnB()
    versions.mockRejectedValue(new Error('signal down'))
    await createPostThroughApi(a, 'Written meanwhile')
    expect(await titlesOn(b)).toEqual(['Written meanwhile', 'Cached'])
    expect(await titlesOn(b)).toEqual(['Written meanwhile', 'Cached'])
    expect(pages).toHaveBeenCalledTimes(2)
  })

  it('shares one version check among reads that arrive together, and each sees the last write', async () => {
    await createPostThroughApi(a, 'Before')
    await titlesOn(b)
    const { versions } = spyOnB()
    await createPostThroughApi(a, 'After')
    const answers = await Promise.all(Array.from({ length: 20 }, () => titlesOn(b)))
    for (const titles of answers) expect(titles).toEqual(['After', 'Before'])
    expect(versions.mock.calls.length).toBeGreaterThanOrEqual(1)
    expect(versions.mock.calls.length).toBeLessThan(20)
  })

  it('lets go of the change signal when a server closes', async () => {
    const c = await composeTestServer({ DATABASE_URL: database.url })
    const signal = c.container.get(TOKENS.changeSignal)
    expect(await signal.version()).toBeGreaterThanOrEqual(0)
    await c.close()
    await expect(signal.version()).rejects.toThrow()
  })

  it('does not keep serving a page that another server’s write overtook while B read it', async () => {
    await createPostThroughApi(a, 'First')
    const store = b.container.get(TOKENS.newsStore)
    const list = store.list.bind(store)
    // A writes just after B's page query has read, before B stores the page: B may answer what
    // it read, but must not keep it as current once the write was answered.
    vi.spyOn(store, 'list').mockImplementationOnce(async (query) => {
      const page = await list(query)
      await createPostThroughApi(a, 'Second')
      return page
    })
    expect(await titlesOn(b)).toEqual(['First'])
    expect(await titlesOn(b)).toEqual(['Second', 'First'])
  })
})

describe('VersionCheck', () => {
  /** A change signal whose lookups the test answers one by one. */
  function manualSignal() {
    const lookups: Array<(version: number) => void> = []
    const signal = {
      version: () => new Promise<number>((resolve) => lookups.push(resolve)),
    }
    return { signal, lookups }
  }

  it('never answers a read with a lookup that began before the read did', async () => {
    const { signal, lookups } = manualSignal()
    const check = new VersionCheck(signal)
    // Reads that arrive together share the one lookup started after them.
    const early = [check.current(), check.current()]
    await vi.waitFor(() => expect(lookups).toHaveLength(1))
    // Reads that arrive while it runs wait for a lookup of their own.
    const late = [check.current(), check.current()]
    lookups[0]?.(1)
    expect(await Promise.all(early)).toEqual([1, 1])
    await vi.waitFor(() => expect(lookups).toHaveLength(2))
    lookups[1]?.(2)
    expect(await Promise.all(late)).toEqual([2, 2])
    expect(lookups).toHaveLength(2)
  })

  it('passes a failure on, and asks again at the next read', async () => {
    const failing = { version: vi.fn(() => Promise.reject(new Error('down'))) }
    const check = new VersionCheck(failing)
    await expect(check.current()).rejects.toThrow('down')
    await expect(check.current()).rejects.toThrow('down')
    expect(failing.version).toHaveBeenCalledTimes(2)
  })
})
