import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { UseCases } from '@/application/use-cases'
import type { PageData, PageNeed } from '@/application/page-data'
import { loadPageData, NO_SUCH_PAGE } from '@/server/services/page-data.loader'
import { refuseSearch } from '@/server/plugins/search-limit'
import { cacheableRead, sendNotModified, VARY_ENCODING } from '@/server/plugins/http-caching'
import { encodingFor } from '@/server/services/first-page.cache'
import { compressed, sendCachedPage, type PageCache } from '@/server/services/page-cache'
import { SEARCH_FIELD } from '@/domain/rules/search-field'
import { matchesIfNoneMatch } from '@/server/services/preconditions'
import type { PageTemplate } from '@/server/services/page-template'

/**
 * The app's server entry (src/ui/app/server-render.tsx, built into dist-server/), as the server
 * uses it: the server never imports the UI, the composition root hands this in.
 */
export interface PageRenderer {
  readonly pageNeed: (pathname: string, search?: string) => PageNeed
  /** 404 for the 'not available' page, 410 for a post in the trash, else 200. */
  readonly pageStatus: (need: PageNeed, data: PageData) => number
  readonly embedPageData: (data: PageData) => string
  readonly PAGE_DATA_ID: string
  /** The app's page paths, as routes (`/news/:id`). */
  readonly PAGE_PATHS: readonly string[]
  readonly renderPage: (request: {
    readonly url: string
    readonly origin: string
    readonly useCases: UseCases
    readonly data: PageData
    /** What the page needs, as pageNeed gave it for the URL. */
    readonly need: PageNeed
  }) => Promise<{ readonly head: string; readonly html: string }>
}

/**
 * Which page cache keeps the page at `url`, if any: the list and the articles, what anonymous
 * readers load, at their own addresses only (a page of the list by `?cursor=`, an article with
 * no query), in the page cache; a search at the address its form gives for its query and page
 * (`?q=…&cursor=…`), in the search pages' own share. Any other query renders as before, so that
 * junk queries cannot churn the cache.
 */
function keptIn(app: FastifyInstance, need: PageNeed, url: string): PageCache | undefined {
  const query = url.indexOf('?')
  // The article, not its edit form (whose page the route also reads the post for).
  if (need.kind === 'item') return url === `/news/${need.id}` ? app.pageCache : undefined
  if (need.kind === 'search') return url === searchAddress(need) ? app.searchPageCache : undefined
  if (need.kind !== 'home') return undefined
  const ownAddress =
    query < 0 || (need.cursor !== undefined && /^\?cursor=[\w-]{1,512}$/.test(url.slice(query)))
  return ownAddress ? app.pageCache : undefined
}

/** A search's own address, as the app's links and its form without JavaScript write it. */
function searchAddress(need: { readonly q: string; readonly cursor?: string }): string {
  const fields = new URLSearchParams({ [SEARCH_FIELD]: need.q })
  if (need.cursor !== undefined) fields.set('cursor', need.cursor)
  return `/search?${fields.toString()}`
}

/**
 * Answers a page request with the page rendered on the server: the template's head gains the
 * page's tags, its root element the app's HTML, and its body the data the browser starts from
 * (a JSON block, which the Content-Security-Policy allows because it never runs). Unknown
 * paths and missing posts answer 404 with the site's own 'not available' page, a post in the
 * trash 410 with a page that says where it is; a search answers 200 whatever it finds, or
 * refuses, since the page shows it. A paged list's `?cursor=` that names none of its pages
 * leads to its first page.
 *
 * The list and the articles come from the page cache while the site's version is the one they
 * were rendered at, precompressed, with an ETag of that version and the build: a client or a
 * CDN that holds it gets a 304 without a render. A search page is kept the same way (its results
 * cannot change while the version stands still), but no CDN keeps it without asking. Forms,
 * history and trash are rendered for each request, and kept by no cache.
 */
export async function sendRenderedPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  renderer: PageRenderer,
  template: PageTemplate,
): Promise<FastifyReply> {
  const pathname = request.url.split('?', 1)[0] ?? '/'
  const need = renderer.pageNeed(pathname, request.url.slice(pathname.length))
  // A search page spends the client's search budget as the API does. Past it, the answer is the
  // API's 429, without rendering: a client flooding the page would otherwise still cost a render.
  if (need.kind === 'search') {
    const allowance = await app.searchBudget(request)
    if (!allowance.allowed) refuseSearch(allowance.retryAfterSeconds)
  }
  const cache = keptIn(app, need, request.url)
  const version = cache === undefined ? undefined : await cache.version()
  if (cache === undefined || version === undefined) {
    const page = await renderedPage(app, request, renderer, template, need)
    if (page.redirect !== undefined) return reply.redirect(page.redirect, 302)
    reply.header('cache-control', app.originCacheControl.page)
    return sendHtml(request, reply, page.status, page.body)
  }
  const etag = `W/"page-${version}-${template.build}"`
  // A CDN may keep the list and the articles briefly; a search it revalidates each time.
  const cacheControl =
    need.kind === 'search' ? app.originCacheControl.page : app.originCacheControl.keptPage
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    return sendNotModified(reply, etag, cacheControl)
  }
  const key = `${app.siteOrigin(request)}${request.url}`
  const found = await cache.page(key, version, encodingFor(request), async () => {
    const page = await renderedPage(app, request, renderer, template, need)
    return page.kept
      ? { keep: true, status: page.status, body: page.body }
      : { keep: false, answer: page }
  })
  if ('answer' in found) {
    const page = found.answer
    if (page.redirect !== undefined) return reply.redirect(page.redirect, 302)
    reply.header('cache-control', app.originCacheControl.page)
    return sendHtml(request, reply, page.status, page.body)
  }
  cacheableRead(reply, etag, cacheControl).code(found.status).type(HTML)
  return sendCachedPage(request, reply, found)
}

const HTML = 'text/html; charset=utf-8'

/** A page rendered for one request: kept only if it rendered whole (not the fallback). */
interface RenderedPage {
  readonly status: number
  readonly body: Buffer
  readonly kept: boolean
  /** Where a cursor that names no page leads instead. */
  readonly redirect?: string
}

async function renderedPage(
  app: FastifyInstance,
  request: FastifyRequest,
  renderer: PageRenderer,
  template: PageTemplate,
  need: PageNeed,
): Promise<RenderedPage> {
  // The site's version first: the page's live stream resumes from it (PageData.seq).
  const seq = app.hasDecorator('changeFeed') ? await app.changeFeed.position() : undefined
  const loaded = await loadPageData(app.useCases, need)
  if (loaded === NO_SUCH_PAGE) {
    return { status: 302, body: Buffer.alloc(0), kept: false, redirect: withoutCursor(request.url) }
  }
  const data = seq?.ok === true ? { ...loaded, seq: seq.value } : loaded
  let page: { readonly head: string; readonly html: string; readonly embedded: string }
  // A search that failed or was refused leaves its data out, for the browser to load: not kept.
  let kept = (seq === undefined || seq.ok) && (need.kind !== 'search' || data.search !== undefined)
  try {
    const { head, html } = await renderer.renderPage({
      url: request.url,
      origin: app.siteOrigin(request),
      useCases: app.useCases,
      data,
      need,
    })
    const embedded = `<script type="application/json" id="${renderer.PAGE_DATA_ID}">${renderer.embedPageData(data)}</script>`
    page = { head, html, embedded }
  } catch (error) {
    // The visitor still gets the page: the browser renders it, as before server rendering.
    request.log.error({ err: error }, 'rendering the page failed; the browser renders it')
    page = { head: '<title>NewsWire</title>', html: '', embedded: '' }
    kept = false
  }
  const { head, html, embedded } = page
  const body = Buffer.from(
    template.beforeHead +
      head +
      template.beforeHtml +
      html +
      template.beforeData +
      embedded +
      template.rest,
  )
  return { status: renderer.pageStatus(need, data), body, kept }
}

/**
 * Sends a page rendered for this request. On one of the app's routes it is compressed as the
 * browser accepts, in one call off the event loop (as hard as @fastify/compress would, brotli 4,
 * without its stream around the body); @fastify/compress hooks routes only, so the not-found
 * handler's page (an unknown path) goes as it is.
 */
async function sendHtml(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: Buffer,
): Promise<FastifyReply> {
  reply.code(status).type(HTML)
  if (reply.compress === null) return reply.send(body)
  reply.header('vary', VARY_ENCODING)
  const encoding = encodingFor(request)
  if (encoding === undefined) return reply.send(body)
  const encoded = await compressed(body, encoding, 'quick')
  return reply.header('content-encoding', encoding).send(encoded)
}

/** The address `url` without its `cursor` field: the first page of the same list. */
function withoutCursor(url: string): string {
  const parsed = new URL(url, 'http://page.invalid')
  parsed.searchParams.delete('cursor')
  return `${parsed.pathname}${parsed.search}`
}
