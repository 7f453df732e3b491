import type { SitemapSource, SitemapSpan } from '@/application/ports/sitemap-source.port'
import { articlePath } from '@/server/services/site-text'
import {
  HOME,
  SITEMAP_URL_LIMIT,
  sitemapIndexXml,
  urlEntriesXml,
  urlsetOf,
} from '@/server/services/sitemap'

/** How many blocks a file reads at once: 5,000 posts, a few milliseconds of one read. */
const BLOCKS_PER_READ = 5

/** What a file of the sitemap is now, known without reading its posts. */
export interface SitemapFileState {
  /**
   * Changes whenever the file does (a post in it written, on any server), and only then; the
   * same on every server of the database.
   */
  readonly stamp: string
  /** A number every write to its posts raises, for the page cache. */
  readonly changes: number
}

/**
 * The sitemap of a database: files of fixed ranges of publication order (search_seq), so that a
 * write changes only the file of the post it touched, and a new post only the newest file.
 * File n holds the live posts numbered (n − 1)·P to n·P − 1, newest first, P being
 * `postsPerFile` (50,000; number 0 is never given, so file 1 has room for `/` first). The source
 * keeps, per block of numbers, its live posts, its writes and its latest change, so:
 *   - /sitemap.xml reads one row per block (1 per 1,000 posts), never a post: file 1 itself while
 *     no other file holds a live post (a small site's sitemap is one file, as before), else an
 *     index of the files that hold one, each with the date of its latest change;
 *   - a file's state is the sum of its own blocks' rows, so a file is rebuilt only after a post
 *     in it changed, and its tag is the same on every server;
 *   - a file reads its posts a few blocks at a time, so no read holds the event loop for long.
 * A file whose posts are all gone answers 404, as the index no longer names it.
 */
export class SitemapFiles {
  /** How many blocks a file covers. */
  private readonly width: number

  constructor(
    private readonly source: SitemapSource,
    postsPerFile: number = SITEMAP_URL_LIMIT,
  ) {
    const perFile = Math.min(Math.max(postsPerFile, source.blockPosts), SITEMAP_URL_LIMIT)
    this.width = Math.floor(perFile / source.blockPosts)
  }

  /** /sitemap.xml: file 1 while it is the only one with a live post, else the index of files. */
  async root(origin: string): Promise<string> {
    const spans = (await this.source.spans(this.width)).filter((span) => span.live > 0)
    if (spans.every((span) => span.index === 0)) return (await this.file(origin, 1)) ?? ''
    const files: { n: number; lastmod: string | undefined }[] = spans.map((span) => ({
      n: span.index + 1,
      lastmod: span.changedAt,
    }))
    // File 1 always is: it holds `/`.
    if (files[0]?.n !== 1) files.unshift({ n: 1, lastmod: undefined })
    return sitemapIndexXml(origin, files)
  }

  /** File n's state (from 1); undefined when there is no such file. */
  async state(n: number): Promise<SitemapFileState | undefined> {
    const first = (n - 1) * this.width
    const span = await this.source.span(first, first + this.width - 1)
    if (n === 1 && span === undefined) return { stamp: `${this.width}/0`, changes: 0 }
    if (span === undefined || (n > 1 && span.live === 0)) return undefined
    return { stamp: stampOf(this.width, span), changes: span.changes }
  }

  /** File n (from 1) as it is now; undefined when it holds no live post (file 1 always is). */
  async file(origin: string, n: number): Promise<string | undefined> {
    const { blockPosts } = this.source
    const first = (n - 1) * this.width
    const parts: string[] = n === 1 ? [urlEntriesXml(origin, [HOME])] : []
    let found = false
    // Newest first, a few blocks per read, so that the loop is free between reads.
    for (let end = first + this.width; end > first; end -= BLOCKS_PER_READ) {
      const start = Math.max(first, end - BLOCKS_PER_READ)
      const posts = await this.source.posts(start * blockPosts, end * blockPosts)
      if (posts.length === 0) continue
      found = true
      parts.push(
        urlEntriesXml(
          origin,
          posts.map((post) => ({ path: articlePath(post.id), lastmod: post.updatedAt })),
        ),
      )
    }
    return found || n === 1 ? urlsetOf(parts.join('')) : undefined
  }
}

function stampOf(width: number, span: SitemapSpan): string {
  return `${width}/${span.changes}/${span.live}/${span.changedAt}`
}
