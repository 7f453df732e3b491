import { Feed, type Extension } from 'feed'
import type { NewsItem } from '@/domain/news-item.entity'
import { excerpt } from '@/domain/rules/excerpt'
import { SITE } from '@/domain/site'
import { articlePath, xmlText } from '@/server/services/site-text'

/** Where the feed is served. */
export const FEED_PATH = '/feed.xml'

/** How many posts the feed carries: the newest, as feed readers poll for what is new. */
export const FEED_SIZE = 50

/** RSS 2.0's media type; the text is UTF-8, as the XML declaration says. */
export const FEED_CONTENT_TYPE = 'application/rss+xml; charset=utf-8'

const CHANNEL = {
  title: SITE.name,
  description: SITE.description,
  language: 'en',
} as const

// How long the feed's description of a post is, as the page's meta description.
const EXCERPT_CHARACTERS = 160

/**
 * The RSS 2.0 feed of `items`, newest first, with absolute links under `origin`. Everything in
 * it comes from the posts, so the same posts give the same bytes on every server: the channel's
 * lastBuildDate is the newest change among them, not the time of the request.
 */
export function newsFeedXml(origin: string, items: readonly NewsItem[]): string {
  const feed = new Feed({
    title: CHANNEL.title,
    description: CHANNEL.description,
    id: `${origin}/`,
    link: `${origin}/`,
    feedLinks: { rss: `${origin}${FEED_PATH}` },
    language: CHANNEL.language,
    updated: lastChange(items),
    generator: false,
  })
  for (const item of items) {
    const link = `${origin}${articlePath(item._id)}`
    feed.addItem({
      title: item.title,
      link,
      // Without a guid of its own the library makes the link the guid, as a permalink.
      date: new Date(item.updatedAt),
      // RSS 2.0 has one date per item: pubDate, the creation. `date` is Atom's <updated>.
      published: new Date(item.createdAt),
      author: [{ name: item.author }],
      extensions: plainTextFields({
        title: item.title,
        description: excerpt(item.body, EXCERPT_CHARACTERS),
        author: item.author,
      }),
    })
  }
  return feed.rss2()
}

/**
 * The fields a visitor wrote, as every feed reader reads them back. Readers take an RSS item's
 * text as HTML (the spec allows HTML in a description, and they decode entities in titles), so
 * plain text goes out HTML-escaped: `<b>` then shows as typed instead of turning bold, and `&amp;`
 * stays `&amp;`. Then inside CDATA, which holds the escaped text byte for byte and can never be
 * closed early, as the text holds no `>` any more. They are set as item extensions, the
 * library's way to set an item's elements, because its own author is written as XML text with
 * `&amp;` first turned back into `&`, which would unescape a name.
 */
function plainTextFields(fields: Readonly<Record<string, string>>): Extension[] {
  return Object.entries(fields).map(([name, text]) => ({
    name,
    objects: { _cdata: escapeHtml(xmlText(text)) },
  }))
}

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/** Text as HTML text: the characters that start markup or an entity become entities. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (character) => HTML_ENTITIES[character] ?? character)
}

/** When the newest of `items` last changed; the epoch for an empty feed, which never changed. */
function lastChange(items: readonly NewsItem[]): Date {
  let newest = 0
  for (const item of items) newest = Math.max(newest, Date.parse(item.updatedAt))
  return new Date(newest)
}
