import { createHash } from 'node:crypto'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { attempt } from '@/domain/result'
import { cacheableRead, sendNotModified } from '@/server/plugins/http-caching'
import { encodingFor } from '@/server/services/first-page.cache'
import { sendCachedPage } from '@/server/services/page-cache'
import { API_CACHE_CONTROL } from '@/contract/api-cache-control'
import { FEED_CONTENT_TYPE, FEED_PATH, FEED_SIZE, newsFeedXml } from '@/server/services/news-feed'
import { matchesIfNoneMatch, pageEtagOf } from '@/server/services/preconditions'
import { refuse, valueOf } from '@/server/services/problem'
import { SITEMAP_CONTENT_TYPE, SITEMAP_PATH, Sitemaps } from '@/server/services/sitemap'
import type { SitemapFiles } from '@/server/services/sitemap-files'

const ROBOTS_PATH = '/robots.txt'

const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8'
// The n of /sitemaps/n.xml, as sitemapFilePath writes it: no sign, no leading zero.
const SITEMAP_FILE_NAME = /^([1-9]\d{0,8})\.xml$/
// Not part of the API: @fastify/static hides the app's files from the OpenAPI document too.
const HIDDEN = { schema: { hide: true } } as const

/** A failure's answer is kept by no cache: the next request tries again. */
const UNCACHED = { 'cache-control': API_CACHE_CONTROL.none }

const NO_SUCH_SITEMAP = 'There is no such sitemap file.'

/** A sitemap from the site's origin and the data's version (if known); undefined: none. */
type BuildFile = (origin: string, version: number | undefined) => Promise<string | undefined>

/**
 * What a site offers crawlers and feed readers beside its pages: the RSS feed of the newest
 * posts, the sitemap (an index of files past 50,000 URLs) and robots.txt naming it. Links are
 * absolute, under the site's origin (PUBLIC_URL's, or the request's). Each answer may be kept
 * as the API's lists are, and answers 304 to a matching If-None-Match. The feed and the sitemap
 * files come from the page cache while the site's version stands, as `/` and articles do. Every tag comes from the
 * data, never the process, and a write on any server changes it at once: a deleted post leaves
 * the feed and the sitemap at once.
 */
export const siteFilesRoutes: FastifyPluginAsync = async (app) => {
  const { useCases, firstPage, originCacheControl, pageCache } = app

  /**
   * Sends a file from the page cache, kept (precompressed) under its origin and path while the
   * site's version stands, with the version's tag: a revalidation is answered before anything is
   * read, and a write on any server makes the next read build it afresh. False when nothing is
   * kept (PAGE_CACHE_MB=0, or the change signal failed): the caller answers uncached. (Not the
   * reply itself: a reply is thenable, and awaiting it waits for the answer to be sent.)
   */
  async function sentKept(
    request: FastifyRequest,
    reply: FastifyReply,
    type: string,
    build: BuildFile,
  ): Promise<boolean> {
    const version = await pageCache.version()
    if (version === undefined) return false
    const origin = app.siteOrigin(request)
    const tag = versionEtagOf(request, origin, version)
    if (matchesIfNoneMatch(request.headers['if-none-match'], tag)) {
      sendNotModified(reply, tag, originCacheControl.read)
      return true
    }
    const path = request.url.split('?', 1)[0] ?? ''
    const found = await pageCache.page(
      `${origin}${path}`,
      version,
      encodingFor(request),
      async () => {
        const file = valueOf(await attempt(() => build(origin, version)), 422, UNCACHED)
        return file === undefined
          ? { keep: false as const, answer: undefined }
          : { keep: true as const, status: 200, body: Buffer.from(file) }
      },
    )
    if ('answer' in found) refuse(404, NO_SUCH_SITEMAP, UNCACHED)
    cacheableRead(reply, tag, originCacheControl.read).type(type)
    sendCachedPage(request, reply, found)
    return true
  }

  async function feed(origin: string): Promise<string> {
    const { items } = valueOf(await useCases.listNews.execute({ limit: FEED_SIZE }), 422, UNCACHED)
    return newsFeedXml(origin, items)
  }

  // Uncached, the feed's tag is a hash of its bytes, which come from the newest posts alone:
  // every server answers the same tag, and reading 50 posts costs a few milliseconds.
  app.get(FEED_PATH, HIDDEN, async (request, reply) => {
    if (await sentKept(request, reply, FEED_CONTENT_TYPE, feed)) return reply
    const body = await feed(app.siteOrigin(request))
    return sendCacheable(request, reply, originCacheControl.read, FEED_CONTENT_TYPE, body)
  })

  /**
   * Sends a sitemap file, which may cost a walk over every post. So its entity tag is the change
   * signal's version (shared by every server on the database, raised by every write) with the
   * path and origin, which answers a revalidation before a single post is read; without a
   * version, a hash of the body. After a backup is put back the version may repeat a number the
   * newer data had: a crawler may then keep a sitemap until the next writes move past it.
   */
  async function sendSitemap(
    request: FastifyRequest,
    reply: FastifyReply,
    build: BuildFile,
  ): Promise<FastifyReply> {
    if (await sentKept(request, reply, SITEMAP_CONTENT_TYPE, build)) return reply
    const origin = app.siteOrigin(request)
    const version = await firstPage.version()
    const tag = version === undefined ? undefined : versionEtagOf(request, origin, version)
    if (tag !== undefined && matchesIfNoneMatch(request.headers['if-none-match'], tag)) {
      return sendNotModified(reply, tag, originCacheControl.read)
    }
    const file = valueOf(await attempt(() => build(origin, version)), 422, UNCACHED)
    if (file === undefined) refuse(404, NO_SUCH_SITEMAP, UNCACHED)
    return sendCacheable(request, reply, originCacheControl.read, SITEMAP_CONTENT_TYPE, file, tag)
  }

  const { sitemapFiles } = app
  if (sitemapFiles === undefined) {
    // Without a database's counts (the in-memory store): walked, as sitemap.ts says.
    const walked = new Sitemaps(useCases.listNews)
    app.get(SITEMAP_PATH, HIDDEN, (request, reply) =>
      sendSitemap(request, reply, (origin, version) => walked.root(origin, version)),
    )
    app.get<{ Params: { file: string } }>('/sitemaps/:file', HIDDEN, (request, reply) =>
      sendSitemap(request, reply, (origin, version) =>
        walked.file(origin, version, sitemapFileNumber(request.params.file)),
      ),
    )
  } else {
    // The index reads a row per block of posts: kept by the site's version, as the feed is.
    app.get(SITEMAP_PATH, HIDDEN, (request, reply) =>
      sendSitemap(request, reply, (origin) => sitemapFiles.root(origin)),
    )
    app.get<{ Params: { file: string } }>('/sitemaps/:file', HIDDEN, (request, reply) =>
      sendSitemapFile(request, reply, sitemapFiles, sitemapFileNumber(request.params.file)),
    )
  }

  /**
   * Sends file n of a database's sitemap, tagged and kept by its own state (sitemap-files.ts),
   * not by the site's version: a write elsewhere on the site leaves it, its tag and its kept
   * copy alone, and a write to one of its posts on any server changes them at once.
   */
  async function sendSitemapFile(
    request: FastifyRequest,
    reply: FastifyReply,
    files: SitemapFiles,
    n: number,
  ): Promise<FastifyReply> {
    const state = valueOf(await attempt(() => files.state(n)), 422, UNCACHED)
    if (state === undefined) refuse(404, NO_SUCH_SITEMAP, UNCACHED)
    const origin = app.siteOrigin(request)
    const path = request.url.split('?', 1)[0] ?? ''
    const tag = weakTagOf(`${path}\n${origin}\n${state.stamp}`)
    if (matchesIfNoneMatch(request.headers['if-none-match'], tag)) {
      return sendNotModified(reply, tag, originCacheControl.read)
    }
    const build = async () => valueOf(await attempt(() => files.file(origin, n)), 422, UNCACHED)
    if (pageCache.maxBytes <= 0) {
      const file = await build()
      if (file === undefined) refuse(404, NO_SUCH_SITEMAP, UNCACHED)
      return sendCacheable(request, reply, originCacheControl.read, SITEMAP_CONTENT_TYPE, file, tag)
    }
    // Kept under its path while its count of writes stands; the next write replaces it.
    const found = await pageCache.page(
      `${origin}${path}`,
      state.changes,
      encodingFor(request),
      async () => {
        const file = await build()
        return file === undefined
          ? { keep: false as const, answer: undefined }
          : { keep: true as const, status: 200, body: Buffer.from(file) }
      },
    )
    if ('answer' in found) refuse(404, NO_SUCH_SITEMAP, UNCACHED)
    cacheableRead(reply, tag, originCacheControl.read).type(SITEMAP_CONTENT_TYPE)
    return sendCachedPage(request, reply, found)
  }

  app.get(ROBOTS_PATH, HIDDEN, (request, reply) => {
    const body = robotsTxt(app.siteOrigin(request))
    return sendCacheable(request, reply, originCacheControl.read, TEXT_CONTENT_TYPE, body)
  })
}

/** Every crawler may read everything; the sitemap says what there is. */
function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${origin}${SITEMAP_PATH}\n`
}

/**
 * `body` with its entity tag (a hash of it, unless given), or a 304 when the client has it;
 * kept as `cacheControl` says, since the body holds the site's origin.
 */
function sendCacheable(
  request: FastifyRequest,
  reply: FastifyReply,
  cacheControl: string,
  type: string,
  body: string,
  tag?: string,
): FastifyReply {
  const etag = tag ?? pageEtagOf(body, undefined)
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    return sendNotModified(reply, etag, cacheControl)
  }
  return cacheableRead(reply, etag, cacheControl).type(type).send(body)
}

/**
 * A weak entity tag for the file at the request's path and origin at `version` of the data;
 * weak, because one tag names the file in every content coding it is sent in.
 */
function versionEtagOf(request: FastifyRequest, origin: string, version: number): string {
  const path = request.url.split('?', 1)[0] ?? ''
  return weakTagOf(`${path}\n${origin}\n${version}`)
}

/** A weak entity tag naming `what` (a file's path, origin and state) by its hash. */
function weakTagOf(what: string): string {
  return `W/"${createHash('sha1').update(what).digest('base64url')}"`
}

/** The n of /sitemaps/n.xml; a name of no file gives 404 here. */
function sitemapFileNumber(name: string): number {
  const n = SITEMAP_FILE_NAME.exec(name)?.[1]
  if (n === undefined) refuse(404, NO_SUCH_SITEMAP, UNCACHED)
  return Number(n)
}
