import type { ListNews } from '@/application/list-news.use-case'
import type { NewsItem } from '@/domain/news-item.entity'
import { MAX_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { articlePath, escapeXml } from '@/server/services/site-text'

/** Where crawlers look for the sitemap, as robots.txt names it. */
export const SITEMAP_PATH = '/sitemap.xml'

/** The sitemap protocol's bound on one file's URLs; past it, /sitemap.xml is an index of files. */
export const SITEMAP_URL_LIMIT = 50_000

export const SITEMAP_CONTENT_TYPE = 'application/xml; charset=utf-8'

/** The n-th (from 1) file a sitemap index names. */
export function sitemapFilePath(n: number): string {
  return `/sitemaps/${n}.xml`
}

/** One URL of a sitemap: a path of the site, and when what it shows last changed, if known. */
export interface SitemapUrl {
  readonly path: string
  readonly lastmod?: string
}

/** A place in the newest-first list of live posts: `skip` posts into the page after `cursor`. */
interface ListPosition {
  readonly cursor: string | undefined
  readonly skip: number
}

/** One file of the sitemap: where its posts begin in the list, and their newest change. */
interface SitemapFile {
  readonly start: ListPosition
  readonly lastmod: string | undefined
}

/** What one walk over the live posts found: how the site's URLs split into files. */
interface SitemapPlan {
  readonly files: readonly SitemapFile[]
  /** Every URL, when they fit one file: a small site is then read once, not twice. */
  readonly urls: readonly SitemapUrl[] | undefined
}

// `/` lists the newest posts: it changes when any post comes or goes, which no date records.
export const HOME: SitemapUrl = { path: '/' }
const LIST_START: ListPosition = { cursor: undefined, skip: 0 }

/**
 * The sitemap of a site without a SitemapSource (the in-memory store of tests), walked through
 * the list use case; a database's sitemap is SitemapFiles (sitemap-files.ts), which never walks.
 * `/`, then every live post, newest first, read a page at a time, so memory holds at most one
 * file's URLs however large the site.
 *
 * Where each file of an index begins is found by one walk over every post; that plan is kept
 * with the change signal's version it was made at, so the index and its files read at the same
 * version share one walk (concurrent requests too), and each file then reads only its own posts.
 * Without a version (no change signal, or it failed) every request walks afresh.
 *
 * The XML is written here rather than with the `sitemap` package: the format is two elements
 * with escaped text, and the package took 10 to 20 times the CPU for 50,000 URLs (about 0.4 s
 * against 0.03 s), needs Node 20.19.5 (the app allows 20.19.0), and brings @types/node 24 as a
 * run-time dependency.
 */
export class Sitemaps {
  private kept: { readonly version: number; readonly plan: Promise<SitemapPlan> } | undefined

  constructor(private readonly listNews: ListNews) {}

  /** /sitemap.xml: the URLs themselves while they fit one file, or else the index of files. */
  async root(origin: string, version: number | undefined): Promise<string> {
    const plan = await this.plan(version)
    if (plan.urls !== undefined) return urlsetXml(origin, plan.urls)
    return sitemapIndexXml(
      origin,
      plan.files.map(({ lastmod }, index) => ({ n: index + 1, lastmod })),
    )
  }

  /** The n-th (from 1) file of the index; undefined when there is no such file. */
  async file(origin: string, version: number | undefined, n: number): Promise<string | undefined> {
    const plan = await this.plan(version)
    const file = plan.files[n - 1]
    if (file === undefined) return undefined
    if (n === 1 && plan.urls !== undefined) return urlsetXml(origin, plan.urls)
    return urlsetXml(origin, await this.read(file, n === 1))
  }

  /** The plan at `version`: the kept one if it was made at that version, else a new walk. */
  private plan(version: number | undefined): Promise<SitemapPlan> {
    if (version === undefined) return this.walkAll()
    if (this.kept?.version === version) return this.kept.plan
    const kept = { version, plan: this.walkAll() }
    this.kept = kept
    kept.plan.catch(() => {
      if (this.kept === kept) this.kept = undefined
    })
    return kept.plan
  }

  private async walkAll(): Promise<SitemapPlan> {
    const files: SitemapFile[] = []
    let current: { start: ListPosition; lastmod: string | undefined } = {
      start: LIST_START,
      lastmod: undefined,
    }
    let urls: SitemapUrl[] | undefined = [HOME]
    let count = 1
    await this.walk(LIST_START, (item, at) => {
      if (count % SITEMAP_URL_LIMIT === 0) {
        files.push(current)
        current = { start: at, lastmod: undefined }
        urls = undefined
      }
      count += 1
      if (current.lastmod === undefined || item.updatedAt > current.lastmod) {
        current.lastmod = item.updatedAt
      }
      urls?.push(urlOf(item))
      return true
    })
    files.push(current)
    return { files, urls }
  }

  /** One file's URLs: up to SITEMAP_URL_LIMIT from its start, `/` first in the first file. */
  private async read(file: SitemapFile, first: boolean): Promise<SitemapUrl[]> {
    const urls = first ? [HOME] : []
    await this.walk(file.start, (item) => {
      urls.push(urlOf(item))
      return urls.length < SITEMAP_URL_LIMIT
    })
    return urls
  }

  /**
   * Calls `visit` with each live post from `from` on, newest first, and where it stands in the
   * list, until the list ends or `visit` answers false. Rejects as the use case fails.
   */
  private async walk(
    from: ListPosition,
    visit: (item: NewsItem, at: ListPosition) => boolean,
  ): Promise<void> {
    let { cursor, skip } = from
    for (;;) {
      const result = await this.listNews.execute({ limit: MAX_PAGE_SIZE, cursor })
      if (!result.ok) throw result.error
      const { items, next } = result.value
      for (const [index, item] of items.entries()) {
        if (index >= skip && !visit(item, { cursor, skip: index })) return
      }
      if (next === undefined) return
      cursor = next
      skip = 0
    }
  }
}

function urlOf(item: NewsItem): SitemapUrl {
  return { path: articlePath(item._id), lastmod: item.updatedAt }
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9'

/** A `<urlset>` of `urls` under `origin`. */
export function urlsetXml(origin: string, urls: readonly SitemapUrl[]): string {
  return urlsetOf(urlEntriesXml(origin, urls))
}

/** The `<url>` elements of `urls` under `origin`, for urlsetOf. */
export function urlEntriesXml(origin: string, urls: readonly SitemapUrl[]): string {
  return urls
    .map(({ path, lastmod }) => `<url>${locOf(origin, path)}${lastmodOf(lastmod)}</url>\n`)
    .join('')
}

/** A `<urlset>` around `<url>` elements (urlEntriesXml). */
export function urlsetOf(entries: string): string {
  return `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NAMESPACE}">\n${entries}</urlset>\n`
}

/** A `<sitemapindex>` naming each file by its number, with when it last changed. */
export function sitemapIndexXml(
  origin: string,
  files: readonly { readonly n: number; readonly lastmod: string | undefined }[],
): string {
  const entries = files.map(
    ({ n, lastmod }) =>
      `<sitemap>${locOf(origin, sitemapFilePath(n))}${lastmodOf(lastmod)}</sitemap>\n`,
  )
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${entries.join('')}</sitemapindex>\n`
}

function locOf(origin: string, path: string): string {
  return `<loc>${escapeXml(`${origin}${path}`)}</loc>`
}

function lastmodOf(lastmod: string | undefined): string {
  return lastmod === undefined ? '' : `<lastmod>${escapeXml(lastmod)}</lastmod>`
}
