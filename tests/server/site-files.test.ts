import { parseFeed } from '@rowanmanning/feed-parser'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { sql } from 'kysely'
import type { NewsItem } from '@/domain/news-item.entity'
import type { ComposedServer } from '@/composition/server/server.composition'
import { SqlSitemapSource } from '@/adapters/sql/sitemap-blocks'
import { excerpt } from '@/domain/rules/excerpt'
import { pageEtagOf } from '@/server/services/preconditions'
import {
  JSON_HEADERS,
  SITE_ORIGIN,
  composeTestServer,
  memoryUseCases,
  describeOnDatabases,
  useDatabase,
  useServer,
  memoryApp,
  editThroughApi,
  createPostThroughApi,
} from './server-fixture'

/** A sitemap file's posts in these tests: a site of a few thousand posts has several files. */
const SMALL_FILE_POSTS = 1_000

/** An instant as RSS writes it (RFC 822 dates hold no fraction of a second), in ms. */
function toTheSecond(instant: string): number {
  return Math.floor(Date.parse(instant) / 1000) * 1000
}

const xml = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' })

interface UrlEntry {
  readonly loc: string
  readonly lastmod?: string
}

/** The `<url>` entries of a urlset, after checking that the document is well-formed XML. */
function urlsetOf(body: string): UrlEntry[] {
  expect(XMLValidator.validate(body)).toBe(true)
  const document = xml.parse(body) as { urlset?: { url?: UrlEntry[] } }
  expect(document.urlset).toBeDefined()
  return document.urlset?.url ?? []
}

function sitemapIndexOf(body: string): UrlEntry[] {
  expect(XMLValidator.validate(body)).toBe(true)
  const document = xml.parse(body) as { sitemapindex?: { sitemap?: UrlEntry[] } }
  expect(document.sitemapindex).toBeDefined()
  return document.sitemapindex?.sitemap ?? []
}

describeOnDatabases('the feed, the sitemap and robots.txt on $name', (kind) => {
  const database = useDatabase(kind, { perTest: true })
  const { server } = useServer({ database, perTest: true })

  const publish = (
    title: string,
    fields: { body?: string; author?: string } = {},
    on: ComposedServer = server,
  ) => createPostThroughApi(on, title, fields)

  async function remove(item: NewsItem): Promise<void> {
    const response = await server.app.inject({ method: 'DELETE', url: `/api/news/${item._id}` })
    expect(response.statusCode).toBe(204)
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ url, headers })

  const articleUrl = (item: NewsItem) => `${SITE_ORIGIN}/news/${item._id}`

  /** Another server of the database, whose sitemap files hold 1,000 posts, not 50,000. */
  const smallFiles = () =>
    composeTestServer({ DATABASE_URL: database.url }, { sitemapFilePosts: SMALL_FILE_POSTS })

  /**
   * `count` live posts straight into the tables, as scripts/bench/seed-posts.ts does, one second
   * apart, newest last, numbered in that order, raising the change signal as a write does:
   * through the API thousands of posts would take a minute.
   */
  async function seed(count: number): Promise<void> {
    const { db } = server.database
    const start = Date.UTC(2020, 0, 1)
    for (let from = 0; from < count; from += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - from) }, (_, offset) => {
        const index = from + offset
        const at = new Date(start + index * 1000).toISOString()
        return { id: `seeded-${index}`, title: `Post ${index}`, body: 'Seeded.', author: 'Ada', at }
      })
      await db
        .insertInto('news')
        .values(
          rows.map(({ at, ...post }, offset) => ({
            ...post,
            created_at: at,
            updated_at: at,
            revision: 1,
            deleted_at: null,
            // Publication order: SQLite's store numbers each insert; PostgreSQL's identity does.
            ...(server.database.engine === 'sqlite' ? { search_seq: from + offset + 1 } : {}),
          })),
        )
        .execute()
      await db
        .insertInto('news_revision')
        .values(
          rows.map(({ id, title, body, author, at }) => ({
            news_id: id,
            revision: 1,
            title,
            body,
            author,
            action: 'create',
            at,
            restored_from: null,
          })),
        )
        .execute()
    }
    // Statistics, as autovacuum would gather: without them PostgreSQL pages the list 6× slower.
    await sql`analyze news`.execute(db)
    await db
      .updateTable('site_version')
      .set({ version: sql<number>`version + 1` })
      .execute()
  }

  describe('GET /feed.xml', () => {
    it('is RSS 2.0 of the newest 50 posts, newest first, with absolute links and dates', async () => {
      const posts: NewsItem[] = []
      for (let index = 0; index < 52; index += 1) {
        posts.unshift(
          await publish(`Post ${index}`, {
            body: `Word ${index} `.repeat(40),
            author: `Author ${index}`,
          }),
        )
      }
      const edited = await server.app.inject({
        method: 'PATCH',
        url: `/api/news/${posts[1]!._id}`,
        headers: JSON_HEADERS,
        payload: { title: 'Post 50, edited' },
      })
      expect(edited.statusCode).toBe(200)
      posts[1] = edited.json<NewsItem>()

      const response = await get('/feed.xml')
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toBe('application/rss+xml; charset=utf-8')
      expect(response.body).toMatch(
        /^<\?xml version="1.0" encoding="utf-8"\?>\s*<rss version="2.0"/,
      )

      const feed = parseFeed(response.body)
      expect(feed.meta.type).toBe('rss')
      expect(feed.title).toBe('NewsWire')
      expect(feed.description).toBe('Discover the world through our news')
      expect(feed.url).toBe(`${SITE_ORIGIN}/`)
      expect(feed.self).toBe(`${SITE_ORIGIN}/feed.xml`)
      expect(feed.language).toBe('en')
      // The channel's date is the newest change among its posts: the edit.
      expect(feed.updated?.getTime()).toBe(toTheSecond(posts[1]!.updatedAt))

      const newest50 = posts.slice(0, 50)
      expect(feed.items.map((item) => item.title)).toEqual(newest50.map((post) => post.title))
      feed.items.forEach((item, index) => {
        const post = newest50[index]!
        expect(item.url).toBe(articleUrl(post))
        expect(item.id).toBe(articleUrl(post))
        expect(item.published?.getTime()).toBe(toTheSecond(post.createdAt))
        expect(item.description).toBe(excerpt(post.body, 160))
        expect(item.authors.map((author) => author.name)).toEqual([post.author])
      })
      expect(feed.items[0]?.description).toMatch(/…$/)
    })

    it('keeps a title, body and author that look like markup as text', async () => {
      const title = '</title><script>alert(1)</script> ]]> x ]]><b>&amp;</b>'
      const body = 'A <body> with ]]> twice ]]> and &lt; an entity'
      const author = 'Tom &amp; Jerry </author>'
      await publish(title, { body, author })

      const response = await get('/feed.xml')
      expect(XMLValidator.validate(response.body)).toBe(true)
      // No element came out of the text: the item holds only what the feed writes.
      const document = xml.parse(response.body) as { rss: { channel: { item: object } } }
      expect(Object.keys(document.rss.channel.item).sort()).toEqual(
        ['author', 'description', 'guid', 'link', 'pubDate', 'title'].sort(),
      )
      const [item] = parseFeed(response.body).items
      expect(item?.title).toBe(title)
      expect(item?.description).toBe(body)
      expect(item?.authors.map((entry) => entry.name)).toEqual([author])
    })

    it('is an empty channel when there are no posts', async () => {
      const response = await get('/feed.xml')
      expect(response.statusCode).toBe(200)
      expect(parseFeed(response.body).items).toEqual([])
    })
  })

  describe('GET /sitemap.xml', () => {
    it('lists / and every live post, newest first, with the post’s last change', async () => {
      const first = await publish('First')
      const second = await publish('Second')
      const third = await publish('Third')
      await remove(second)
      const edited = await editThroughApi(server, first._id, { body: 'Changed.' })
      const firstNow = edited.json<NewsItem>()
      expect(firstNow.updatedAt > first.updatedAt).toBe(true)

      const response = await get('/sitemap.xml')
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toBe('application/xml; charset=utf-8')
      expect(urlsetOf(response.body)).toEqual([
        { loc: `${SITE_ORIGIN}/` },
        { loc: articleUrl(third), lastmod: third.updatedAt },
        { loc: articleUrl(firstNow), lastmod: firstNow.updatedAt },
      ])
    })

    it('becomes an index of fixed files past a file’s posts, which hold every post once', async () => {
      // Files of 1,000 numbers: file 1 holds `/` and the posts numbered 1 to 999 (seeded-0 to
      // seeded-998), file 2 those numbered 1,000 to 1,999, file 3 the other 501.
      await seed(2_500)
      const small = await smallFiles()
      try {
        const read = (url: string) => small.app.inject(url)
        const seededAt = (index: number) => new Date(Date.UTC(2020, 0, 1) + index * 1000)
        const index = await read('/sitemap.xml')
        expect(index.statusCode).toBe(200)
        expect(sitemapIndexOf(index.body)).toEqual(
          [998, 1998, 2499].map((newest, file) => ({
            loc: `${SITE_ORIGIN}/sitemaps/${file + 1}.xml`,
            lastmod: seededAt(newest).toISOString(),
          })),
        )

        const files = await Promise.all(
          [1, 2, 3].map(async (n) => urlsetOf((await read(`/sitemaps/${n}.xml`)).body)),
        )
        expect(files.map((file) => file.length)).toEqual([1000, 1000, 501])
        expect(files[0]?.[0]).toEqual({ loc: `${SITE_ORIGIN}/` })
        expect(files[0]?.[1]).toEqual({
          loc: `${SITE_ORIGIN}/news/seeded-998`,
          lastmod: seededAt(998).toISOString(),
        })
        expect(files[1]?.[0]?.loc).toBe(`${SITE_ORIGIN}/news/seeded-1998`)
        expect(files[2]?.at(-1)?.loc).toBe(`${SITE_ORIGIN}/news/seeded-1999`)
        const posts = files
          .flat()
          .slice(1)
          .map((entry) => entry.loc)
        expect(new Set(posts).size).toBe(2_500)

        expect((await read('/sitemaps/4.xml')).statusCode).toBe(404)
      } finally {
        await small.close()
      }
    }, 30_000)

    it('changes only the file of a written post, at once on every server, reading no other', async () => {
      await seed(2_500)
      const [a, b] = [await smallFiles(), await smallFiles()]
      try {
        const read = (on: ComposedServer, url: string, etag?: string) =>
          on.app.inject({ url, headers: etag === undefined ? {} : { 'if-none-match': etag } })
        const paths = [1, 2, 3].map((n) => `/sitemaps/${n}.xml`)
        const tags = new Map<string, string>()
        for (const path of paths) tags.set(path, String((await read(a, path)).headers.etag))
        const tagOf = (path: string) => tags.get(path) ?? ''
        const postReads = vi.spyOn(SqlSitemapSource.prototype, 'posts')

        // An edit on b of a post in file 2.
        const edited = await b.app.inject({
          method: 'PATCH',
          url: '/api/news/seeded-1500',
          headers: JSON_HEADERS,
          payload: { body: 'Changed.' },
        })
        expect(edited.statusCode).toBe(200)
        for (const on of [a, b]) {
          expect((await read(on, paths[0] ?? '', tagOf(paths[0] ?? ''))).statusCode).toBe(304)
          expect((await read(on, paths[2] ?? '', tagOf(paths[2] ?? ''))).statusCode).toBe(304)
        }
        expect(postReads).not.toHaveBeenCalled()
        await read(a, '/sitemap.xml')
        expect(postReads, 'the index reads no post').not.toHaveBeenCalled()
        const second = await read(a, paths[1] ?? '', tagOf(paths[1] ?? ''))
        expect(second.statusCode).toBe(200)
        expect(urlsetOf(second.body)).toContainEqual({
          loc: `${SITE_ORIGIN}/news/seeded-1500`,
          lastmod: edited.json<NewsItem>().updatedAt,
        })
        // One read of its posts (a file's blocks in one go), kept for the next request.
        expect(postReads).toHaveBeenCalledTimes(1)
        expect((await read(a, paths[1] ?? '')).headers.etag).toBe(second.headers.etag)
        expect(postReads).toHaveBeenCalledTimes(1)
        expect(String(second.headers.etag)).not.toBe(tagOf(paths[1] ?? ''))
        tags.set(paths[1] ?? '', String(second.headers.etag))

        // A deletion on b in file 3, then a new post, which lands in the newest file.
        expect(
          (await b.app.inject({ method: 'DELETE', url: '/api/news/seeded-2100' })).statusCode,
        ).toBe(204)
        const third = await read(a, paths[2] ?? '', tagOf(paths[2] ?? ''))
        expect(third.statusCode).toBe(200)
        expect(third.body).not.toContain('/news/seeded-2100<')
        const item = await publish('Newest', {}, b)
        const newest = urlsetOf((await read(a, paths[2] ?? '', String(third.headers.etag))).body)
        expect(newest[0]).toEqual({ loc: articleUrl(item), lastmod: item.updatedAt })
        expect(newest).toHaveLength(501)
        for (const path of paths.slice(0, 2)) {
          expect((await read(a, path, tagOf(path))).statusCode, path).toBe(304)
        }
      } finally {
        await Promise.all([a.close(), b.close()])
      }
    }, 30_000)

    it('drops a file whose posts are all gone, and is one file again when only the first holds any', async () => {
      await seed(1_002)
      const small = await smallFiles()
      try {
        expect(sitemapIndexOf((await small.app.inject('/sitemap.xml')).body)).toHaveLength(2)
        for (const index of [999, 1000, 1001]) {
          const removed = await small.app.inject({
            method: 'DELETE',
            url: `/api/news/seeded-${index}`,
          })
          expect(removed.statusCode).toBe(204)
        }
        expect((await small.app.inject('/sitemaps/2.xml')).statusCode).toBe(404)
        const root = urlsetOf((await small.app.inject('/sitemap.xml')).body)
        expect(root).toHaveLength(1000)
        expect(root[0]).toEqual({ loc: `${SITE_ORIGIN}/` })
      } finally {
        await small.close()
      }
    }, 30_000)

    it.each(['0.xml', '01.xml', '1.txt', 'one.xml', '-1.xml'])(
      'answers 404 for /sitemaps/%s',
      async (name) => {
        const response = await get(`/sitemaps/${name}`)
        expect(response.statusCode).toBe(404)
        expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8')
        expect(response.headers['cache-control']).toBe('no-store')
      },
    )
  })

  describe('conditional GET', () => {
    it.each(['/feed.xml', '/sitemap.xml'])(
      '%s answers 304 to its ETag, and a deleted post leaves it at once',
      async (path) => {
        const kept = await publish('Kept')
        const gone = await publish('Gone')
        const before = await get(path)
        expect(before.statusCode).toBe(200)
        // Without PUBLIC_URL the links come from the Host: only the client's cache keeps them.
        expect(before.headers['cache-control']).toBe(
          'private, max-age=5, stale-while-revalidate=60',
        )
        expect(before.headers.vary).toBe('accept-encoding')
        const etag = String(before.headers.etag)
        expect(etag).toMatch(/^W\/"[\w-]+"$/)
        expect(before.body).toContain(articleUrl(gone))

        const again = await get(path, { 'if-none-match': etag })
        expect(again.statusCode).toBe(304)
        expect(again.body).toBe('')
        expect(again.headers.etag).toBe(etag)

        await remove(gone)
        const after = await get(path, { 'if-none-match': etag })
        expect(after.statusCode).toBe(200)
        expect(after.headers.etag).not.toBe(etag)
        expect(after.body).not.toContain(articleUrl(gone))
        expect(after.body).toContain(articleUrl(kept))
      },
    )

    it('gives the same ETag on every server of the database', async () => {
      await publish('Shared')
      const other = await composeTestServer({ DATABASE_URL: database.url })
      try {
        for (const path of ['/feed.xml', '/sitemap.xml']) {
          const etag = String((await get(path)).headers.etag)
          const there = await other.app.inject({ url: path, headers: { 'if-none-match': etag } })
          expect(there.statusCode).toBe(304)
        }
      } finally {
        await other.close()
      }
    })
  })

  describe('GET /robots.txt', () => {
    it('allows every crawler everything and names the sitemap', async () => {
      const response = await get('/robots.txt')
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(response.body).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${SITE_ORIGIN}/sitemap.xml\n`)
      const again = await get('/robots.txt', { 'if-none-match': String(response.headers.etag) })
      expect(again.statusCode).toBe(304)
    })
  })

  it('writes PUBLIC_URL’s origin into the feed, the sitemap and robots.txt', async () => {
    const item = await publish('Public')
    const behind = await composeTestServer({
      DATABASE_URL: database.url,
      PUBLIC_URL: 'https://news.example/',
    })
    try {
      const read = async (path: string) => (await behind.app.inject(path)).body
      expect(parseFeed(await read('/feed.xml')).items[0]?.url).toBe(
        `https://news.example/news/${item._id}`,
      )
      expect(urlsetOf(await read('/sitemap.xml'))[1]?.loc).toBe(
        `https://news.example/news/${item._id}`,
      )
      expect(await read('/robots.txt')).toContain('Sitemap: https://news.example/sitemap.xml')
    } finally {
      await behind.close()
    }
  })
})

describe('the site files without a change signal', () => {
  it('tag the feed and sitemap by a hash of their bytes, which a deleted post changes', async () => {
    const useCases = memoryUseCases()
    const app = await memoryApp({ useCases })
    try {
      const created = await useCases.createNews.execute({
        title: 'Only',
        body: 'Text.',
        author: 'Ada',
      })
      if (!created.ok) throw new Error('The post was not created')
      const paths = ['/feed.xml', '/sitemap.xml']
      const etags = new Map<string, string>()
      for (const path of paths) {
        const before = await app.inject(path)
        expect(before.body).toContain(created.value._id)
        const etag = String(before.headers.etag)
        expect(etag).toBe(pageEtagOf(before.body, undefined))
        etags.set(path, etag)
        const again = await app.inject({ url: path, headers: { 'if-none-match': etag } })
        expect(again.statusCode).toBe(304)
      }

      expect((await useCases.deleteNews.execute(created.value._id)).ok).toBe(true)
      for (const path of paths) {
        const after = await app.inject({
          url: path,
          headers: { 'if-none-match': etags.get(path) ?? '' },
        })
        expect(after.statusCode).toBe(200)
        expect(after.body).not.toContain(created.value._id)
      }
    } finally {
      await app.close()
    }
  })
})

describe('the OpenAPI document', () => {
  it('leaves out the site files, which are not part of the API', async () => {
    const server = await composeTestServer()
    try {
      const document = (await server.app.inject('/api/openapi.json')).json<{
        paths: Record<string, unknown>
      }>()
      expect(Object.keys(document.paths)).toContain('/api/news')
      for (const path of ['/feed.xml', '/sitemap.xml', '/sitemaps/{file}', '/robots.txt']) {
        expect(document.paths).not.toHaveProperty([path])
      }
    } finally {
      await server.close()
    }
  })
})
