import type { ComposedServer } from '@/composition/server/server.composition'
import * as renderer from '@/ui/app/server-render'
import { composeTestServer, createPostThroughApi, distWithPageTemplate } from './server-fixture'

/** The host a client names to plant its own links in what a cache in front would keep. */
const EVIL = 'evil.example'
const PUBLIC_URL = 'https://news.example.com'
const LIST_CACHE_CONTROL = 'public, max-age=5, stale-while-revalidate=60'
/** The list and the articles, which the page cache keeps and a CDN may keep briefly. */
const KEPT_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=5, stale-while-revalidate=60'

/**
 * Every answer whose body links under the site's origin: each page of the app (a post's pages
 * for the post given), the site's 404 page, the feed, the sitemap and its first file, and
 * robots.txt. Whether each is a page (`no-cache`) or a file kept like the lists.
 */
function linkedAnswers(postId: string): { url: string; page: boolean }[] {
  return [
    ...renderer.PAGE_PATHS.map((path) => ({ url: path.replace(/:\w+/g, postId), page: true })),
    { url: '/no-such-page', page: true },
    ...['/feed.xml', '/sitemap.xml', '/sitemaps/1.xml', '/robots.txt'].map((url) => ({
      url,
      page: false,
    })),
  ]
}

async function siteWith(env: Record<string, string>) {
  const server = await composeTestServer(env, { distDir: distWithPageTemplate(), renderer })
  const post = await createPostThroughApi(server, 'Harbour opens')
  return { server, postId: post._id, answers: linkedAnswers(post._id) }
}

/** GET `url` as a client that names EVIL as the host (to a trusted proxy that passes it on). */
function getFromEvilHost(server: ComposedServer, url: string, etag?: string) {
  return server.app.inject({
    url,
    headers: {
      host: 'internal:3000',
      'x-forwarded-host': EVIL,
      ...(etag === undefined ? {} : { 'if-none-match': etag }),
    },
  })
}

describe('answers with links from the request’s Host (PUBLIC_URL unset)', () => {
  let site: Awaited<ReturnType<typeof siteWith>>
  beforeAll(async () => {
    site = await siteWith({ TRUST_PROXY: '1' })
  })
  afterAll(() => site.server.close())

  it('are kept by no shared cache: private, on every 200, 404 and 304', async () => {
    for (const { url } of site.answers) {
      const response = await getFromEvilHost(site.server, url)
      expect({ url, links: response.body.includes(`://${EVIL}`) }).toEqual({ url, links: true })
      const cacheControl = response.headers['cache-control']
      expect({ url, cacheControl }).toEqual({
        url,
        cacheControl: expect.stringMatching(/^private, /),
      })
      const etag = response.headers.etag
      if (typeof etag !== 'string') continue
      const notModified = await getFromEvilHost(site.server, url, etag)
      expect({
        url,
        status: notModified.statusCode,
        cacheControl: notModified.headers['cache-control'],
      }).toEqual({
        url,
        status: 304,
        cacheControl: expect.stringMatching(/^private, /),
      })
    }
  })
})

describe('answers with links under PUBLIC_URL', () => {
  let site: Awaited<ReturnType<typeof siteWith>>
  beforeAll(async () => {
    site = await siteWith({ TRUST_PROXY: '1', PUBLIC_URL })
  })
  afterAll(() => site.server.close())

  it('may be kept by any cache, whatever host the client names', async () => {
    for (const { url, page } of site.answers) {
      const response = await getFromEvilHost(site.server, url)
      expect({ url, links: response.body.includes(EVIL) }).toEqual({ url, links: false })
      expect({ url, cacheControl: response.headers['cache-control'] }).toEqual({
        url,
        cacheControl: !page
          ? LIST_CACHE_CONTROL
          : url === '/' || url === `/news/${site.postId}`
            ? KEPT_PAGE_CACHE_CONTROL
            : 'no-cache',
      })
    }
  })
})
