export interface LinkValue {
  readonly target: string
  /** Lower-cased relation types; one `rel` may name several. */
  readonly rels: readonly string[]
}

// RFC 8288: `<target>` then `; name=value` params; values may be quoted (and hold , or ;).
const TARGET = /[\s,]*<([^>]*)>/y
const PARAM = /\s*;\s*([^\s=;,]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;,"]*)))?/y
const SEPARATOR = /\s*(?:,|$)/y

function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at
  return pattern.exec(text)
}

/** Reads a Link header; parsing stops at the first malformed link and keeps those before it. */
export function parseLinkHeader(header: string): LinkValue[] {
  const links: LinkValue[] = []
  let at = 0
  while (at < header.length) {
    const target = matchAt(TARGET, header, at)
    if (target === null) break
    at = TARGET.lastIndex
    let rel: string | undefined
    for (let param = matchAt(PARAM, header, at); param; param = matchAt(PARAM, header, at)) {
      at = PARAM.lastIndex
      // Only the first rel counts (RFC 8288 §3.3).
      if (rel === undefined && param[1]?.toLowerCase() === 'rel') {
        rel = param[2]?.replace(/\\(.)/g, '$1') ?? param[3] ?? ''
      }
    }
    if (matchAt(SEPARATOR, header, at) === null) break
    at = SEPARATOR.lastIndex
    const rels = (rel ?? '').toLowerCase().split(/\s+/).filter(Boolean)
    links.push({ target: target[1] ?? '', rels })
  }
  return links
}

/** The absolute URL of the first `rel="next"` link, resolved against the request's URL. */
export function nextLinkOf(header: string | null, requestUrl: URL): URL | undefined {
  const next = parseLinkHeader(header ?? '').find((link) => link.rels.includes('next'))
  if (next === undefined) return undefined
  try {
    return new URL(next.target, requestUrl)
  } catch {
    return undefined
  }
}
