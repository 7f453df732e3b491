/*
 * What the sitemap reads (server/services/sitemap-files.ts): posts by their place in publication
 * order, in fixed blocks whose counts the store keeps as it writes, so that a file's state and
 * the list of files are known without reading the posts. Not a news rule, so not a domain port.
 */

/** What is known of a span of blocks without reading its posts. */
export interface SitemapSpan {
  /** Its live posts. */
  readonly live: number
  /** Raised by every write to a post in it, and never lowered. */
  readonly changes: number
  /** The latest edit or deletion of a post in it (ISO 8601). */
  readonly changedAt: string
}

/** A span, numbered among spans of the same width from 0 (the span of the first blocks). */
export interface NumberedSpan extends SitemapSpan {
  readonly index: number
}

/** A live post as a sitemap lists it. */
export interface SitemapPost {
  readonly id: string
  readonly updatedAt: string
}

export interface SitemapSource {
  /** How many publication numbers one block covers; block b holds numbers b·this to (b+1)·this − 1. */
  readonly blockPosts: number
  /**
   * The spans of `width` blocks in which a post was ever written, in order: span i covers
   * blocks i·width to (i+1)·width − 1. Reads one row per block, never a post.
   */
  spans(width: number): Promise<NumberedSpan[]>
  /** The span of blocks `from` to `to` (inclusive); undefined when no post was ever in it. */
  span(from: number, to: number): Promise<SitemapSpan | undefined>
  /** The live posts numbered `from` to `to` − 1, newest (highest number) first. */
  posts(from: number, to: number): Promise<SitemapPost[]>
}
