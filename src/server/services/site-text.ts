/** A post's page on the site: the path crawlers, feed readers and visitors follow. */
export function articlePath(id: string): string {
  return `/news/${encodeURIComponent(id)}`
}

// Every character XML 1.0 allows (its production 2), as a negated class: the rest are dropped.
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/**
 * `text` with the characters XML 1.0 cannot hold removed: the domain refuses control characters
 * in new posts, but U+FFFE and U+FFFF pass, and older posts may predate the rule. A feed or
 * sitemap holding one would be refused whole by a strict parser.
 */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHARACTER, '')
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

/** `text` as XML character data or an attribute value: markup characters become entities. */
export function escapeXml(text: string): string {
  return xmlText(text).replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character)
}
