import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JSDOM } from 'jsdom'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsPage } from '@/domain/ports/news-repository.port'
import type { ComposedServer } from '@/composition/server/server.composition'
import { sourceHash } from '@/server/plugins/security'
import * as renderer from '@/ui/app/server-render'
import { composeTestServer, createPostThroughApi, useServer } from './server-fixture'

/** The app's entry and a module it imports, as `vite build` writes them into index.html. */
const BUILT_SCRIPTS =
  '<script type="module" crossorigin src="/assets/index-test.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/jsx-runtime-test.js">'

/** A built app's folder whose index.html is the project's own template, with its slots. */
function distWithTemplate(): string {
  const dir = mkdtempSync(join(tmpdir(), 'newswire-pages-'))
  mkdirSync(join(dir, 'assets'))
  writeFileSync(
    join(dir, 'index.html'),
    readFileSync('index.html', 'utf8')
      .replace(
        '</head>',
        `${BUILT_SCRIPTS}<link rel="stylesheet" crossorigin href="/assets/index-test.css"></head>`,
      )
      .replace(/<script type="module" src="\/src\/[^"]+"><\/script>/, ''),
  )
  writeFileSync(join(dir, 'assets', 'index-test.css'), '.news-grid { display: flex; }\n')
  return dir
}

const PUBLIC_URL = 'https://news.example.com'
const HOSTILE = '</script><script>alert(1)</script><!--'

const { server } = useServer({
  env: { PUBLIC_URL },
  options: { distDir: distWithTemplate(), renderer },
})

function create(title: string, body?: string, author?: string): Promise<NewsItem> {
  return createPostThroughApi(server, title, { body, author })
}

async function page(url: string, headers: Record<string, string> = {}) {
  const response = await server.app.inject({ url, headers })
  const { document } = new JSDOM(response.body).window
  const meta = (key: string) =>
    document.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content')
  const data = document.getElementById(renderer.PAGE_DATA_ID)?.textContent
  const jsonLd = document.querySelector('script[type="application/ld+json"]')?.textContent
  return {
    response,
    document,
    meta,
    data: data === undefined || data === null ? undefined : (JSON.parse(data) as unknown),
    jsonLd: jsonLd === undefined || jsonLd === null ? undefined : (JSON.parse(jsonLd) as unknown),
  }
}

describe('server-rendered pages', () => {
  it('renders the first page of cards into the HTML of /, with the data the app starts from', async () => {
    const older = await create('Harbour reopens')
    const newer = await create('Market returns')

    const home = await page('/')

    expect(home.response.statusCode).toBe(200)
    expect(home.response.headers['content-type']).toBe('text/html; charset=utf-8')
    const titles = [...home.document.querySelectorAll('#root h2')].map((h) => h.textContent)
    expect(titles.slice(0, 2)).toEqual([newer.title, older.title])
    const data = home.data as { home: NewsPage }
    expect(data.home.items.map((item) => item._id).slice(0, 2)).toEqual([newer._id, older._id])
    expect(home.document.title).toBe('Latest news | NewsWire')
    expect(home.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      `${PUBLIC_URL}/`,
    )
    expect(home.jsonLd).toMatchObject({ '@type': 'WebSite', url: `${PUBLIC_URL}/` })
    const feed = home.document.querySelector('link[rel="alternate"][type="application/rss+xml"]')
    expect(feed?.getAttribute('href')).toBe(`${PUBLIC_URL}/feed.xml`)
  })

  it('renders a full first page in line, with no script that the CSP would refuse', async () => {
    const body = 'A report on the harbour, its ships and its people. '.repeat(9)
    for (let n = 0; n < 30; n += 1) await create(`Report ${n}`, body)

    const home = await page('/')

    expect(home.document.querySelectorAll('#root article')).toHaveLength(24)
    expect(home.document.querySelectorAll('script:not([type]), template')).toHaveLength(0)
  })

  it('renders an article with its preview tags and NewsArticle JSON-LD', async () => {
    const body = `${'The bridge opened at dawn and the first cyclists crossed it together. '.repeat(4)}End.`
    const item = await create('Bridge opens early', body, 'Chen Wei')

    const article = await page(`/news/${item._id}`)

    expect(article.response.statusCode).toBe(200)
    expect(article.document.querySelector('#root h1')?.textContent).toBe(item.title)
    expect(article.document.title).toBe(`${item.title} | NewsWire`)
    const url = `${PUBLIC_URL}/news/${item._id}`
    expect(article.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(url)
    const description = article.meta('description') ?? ''
    expect(body.startsWith(description.replace(/…$/, ''))).toBe(true)
    expect(description.length).toBeLessThanOrEqual(161)
    expect(article.meta('og:type')).toBe('article')
    expect(article.meta('og:title')).toBe(item.title)
    expect(article.meta('og:description')).toBe(description)
    expect(article.meta('og:url')).toBe(url)
    expect(new URL(article.meta('og:image') ?? '').protocol).toBe('https:')
    expect(article.meta('twitter:card')).toBe('summary_large_image')
    expect(article.jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: item.title,
      description,
      author: [{ '@type': 'Person', name: 'Chen Wei' }],
      datePublished: item.createdAt,
      dateModified: item.updatedAt,
      image: [article.meta('og:image')],
      mainEntityOfPage: url,
      publisher: { '@type': 'Organization', name: 'NewsWire' },
    })
    expect(article.data).toEqual({ item: { id: item._id, item }, seq: expect.any(Number) })
  })

  it("embeds the site's version the page was read at, where the page's live stream resumes", async () => {
    const before = await page('/')
    const { seq } = before.data as { seq: number }
    const item = await create('Ferry timetable changes')

    const after = await page(`/news/${item._id}`)

    // Creating the post raised the version by one: the page holds every change up to its seq.
    expect((after.data as { seq: number }).seq).toBe(seq + 1)
  })

  it('keeps a hostile title inside the embedded data, the JSON-LD and the head', async () => {
    const item = await create(HOSTILE, `${HOSTILE} in the body`, 'Mallory <b>')

    const article = await page(`/news/${item._id}`)

    const body = article.response.body
    // Only the app's own script elements, none from the post.
    expect(article.document.querySelectorAll('script:not([type])')).toHaveLength(0)
    expect(body).not.toContain('<script>alert(1)')
    const blocks = body.split(/<script type="application\/(?:json|ld\+json)"[^>]*>/).slice(1)
    for (const block of blocks) expect(block.split('</script>')[0]).not.toMatch(/<|>/)
    expect((article.data as { item: { item: NewsItem } }).item.item.title).toBe(HOSTILE)
    expect((article.jsonLd as { headline: string }).headline).toBe(HOSTILE)
    expect(article.document.title).toBe(`${HOSTILE} | NewsWire`)
    expect(article.document.querySelector('#root h1')?.textContent).toBe(HOSTILE)
    const policy = article.response.headers['content-security-policy'] as string
    const boot = article.document.querySelector('script[type="module"]')?.textContent ?? ''
    expect(policy).toContain(`script-src 'self' ${sourceHash(boot)};`)
    expect(policy).not.toContain('unsafe-inline')
  })

  it('renders the edit form with the stored post in its fields', async () => {
    const item = await create('Library extends its hours', 'Open until nine.', 'Cleo')

    const form = await page(`/news/${item._id}/edit`)

    expect(form.response.statusCode).toBe(200)
    const field = (name: string) =>
      form.document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)
    expect(field('title')?.value).toBe(item.title)
    expect(field('author')?.value).toBe('Cleo')
    expect(field('body')?.value).toBe('Open until nine.')
    expect(form.meta('robots')).toBe('noindex')
  })

  it.each(['/news/new', '/contact'])('renders the fields of the form at %s', async (path) => {
    const form = await page(path)

    expect(form.response.statusCode).toBe(200)
    expect(
      form.document.querySelectorAll('#root main form input, #root main form textarea').length,
    ).toBe(path === '/contact' ? 3 : 3)
    // The submit button waits for the app, so that an early press cannot send the form as a page load.
    expect(
      form.document.querySelector<HTMLButtonElement>('#root main button[type="submit"]')?.disabled,
    ).toBe(true)
  })

  it.each(['/no/such/page', '/news/no-such-post', '/news/no-such-post/edit'])(
    'answers 404 with the site’s own page at %s',
    async (path) => {
      const missing = await page(path)

      expect(missing.response.statusCode).toBe(404)
      expect(missing.response.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(missing.document.querySelector('#root h1')?.textContent).toBe('Page not available')
      expect(missing.document.querySelector('#root a[href="/"]')).not.toBeNull()
      expect(missing.meta('robots')).toBe('noindex')
    },
  )

  it('answers 410 for a deleted article at once', async () => {
    const item = await create('Short-lived news')
    expect((await page(`/news/${item._id}`)).response.statusCode).toBe(200)

    const deleted = await server.app.inject({ method: 'DELETE', url: `/api/news/${item._id}` })
    expect(deleted.statusCode).toBe(204)

    expect((await page(`/news/${item._id}`)).response.statusCode).toBe(410)
    const home = await page('/')
    expect(home.response.body).not.toContain('Short-lived news')
  })

  it('compresses the page for a browser that accepts it', async () => {
    await create('Compressed news', 'A body long enough. '.repeat(20))

    const response = await server.app.inject({
      url: '/',
      headers: { 'accept-encoding': 'br, gzip' },
    })

    expect(response.statusCode).toBe(200)
    expect(response.headers['content-encoding']).toBe('br')
    expect(response.headers.vary).toContain('accept-encoding')
  })

  it('writes the stylesheet into the page, allowed by its hash and no other inline style', async () => {
    const home = await page('/')

    const style = home.document.querySelector('head style')?.textContent ?? ''
    expect(style).toContain('.news-grid')
    expect(home.document.querySelector('link[rel="stylesheet"]')).toBeNull()
    const policy = home.response.headers['content-security-policy'] as string
    const styleSrc = policy.split(';').find((directive) => directive.startsWith('style-src '))
    expect(styleSrc).toBe(`style-src 'self' ${sourceHash(style)}`)
    expect(policy).not.toContain('unsafe-inline')
  })

  it('starts the app from one inline script, allowed by its hash, instead of script tags', async () => {
    const home = await page('/')

    expect(home.document.querySelector('script[src], link[rel="modulepreload"]')).toBeNull()
    const scripts = home.document.querySelectorAll('script[type="module"]')
    expect(scripts).toHaveLength(1)
    const boot = scripts[0]?.textContent ?? ''
    expect(boot).toContain('import("/assets/index-test.js")')
    expect(boot).toContain('["/assets/jsx-runtime-test.js"]')
    expect(boot).toContain("'first-contentful-paint'")
    const policy = home.response.headers['content-security-policy'] as string
    const scriptSrc = policy.split(';').find((directive) => directive.startsWith('script-src '))
    expect(scriptSrc).toBe(`script-src 'self' ${sourceHash(boot)}`)
  })

  it('never serves the template itself', async () => {
    const response = await server.app.inject('/index.html')

    expect(response.statusCode).toBe(404)
    expect(response.body).not.toContain('<!--app-html-->')
  })
})

describe('the origin of absolute links', () => {
  let fromRequest: ComposedServer

  beforeAll(async () => {
    fromRequest = await composeTestServer(
      { TRUST_PROXY: '1' },
      { distDir: distWithTemplate(), renderer },
    )
  })

  afterAll(async () => {
    await fromRequest.close()
  })

  it('comes from the request when PUBLIC_URL is unset, and from a trusted proxy’s headers', async () => {
    const direct = await fromRequest.app.inject({ url: '/', headers: { host: 'localhost:3000' } })
    expect(direct.body).toContain('<link rel="canonical" href="http://localhost:3000/"/>')

    const proxied = await fromRequest.app.inject({
      url: '/',
      headers: {
        host: 'internal:3000',
        'x-forwarded-host': 'news.example.org',
        'x-forwarded-proto': 'https',
      },
    })
    expect(proxied.body).toContain('<link rel="canonical" href="https://news.example.org/"/>')
  })
})
