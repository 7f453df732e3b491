import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { InlineSources } from '@/server/plugins/security'

/** Where the built index.html takes the rendered page: comments the template keeps for it. */
export const SLOTS = {
  head: '<!--app-head-->',
  html: '<!--app-html-->',
  data: '<!--app-data-->',
} as const

/** The built index.html, split around its slots once, at start. */
export interface PageTemplate {
  readonly beforeHead: string
  readonly beforeHtml: string
  readonly beforeData: string
  readonly rest: string
  /** The stylesheet and the script written into the page, which the CSP allows by hash. */
  readonly inline: InlineSources
  /** A digest of the built page, which a new build changes: part of every kept page's ETag. */
  readonly build: string
}

/** A stylesheet link as Vite writes it into index.html, for a built file under /assets/. */
const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*? href="(\/assets\/[\w.-]+\.css)"[^>]*>/g
/** The app's entry and the modules it imports, as Vite writes them into index.html. */
const MODULE_SCRIPT = /<script type="module"[^>]*? src="(\/assets\/[\w.-]+\.js)"[^>]*><\/script>/g
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*? href="(\/assets\/[\w.-]+\.js)"[^>]*>/g

/**
 * The built index.html of `distDir`, ready to take pages.
 *
 * Its stylesheet is written into the page (a few KB, compressed with it) instead of linked: a
 * phone on a slow network then paints the page one round trip sooner. The stylesheet is the
 * app's own and never holds `</style>`.
 *
 * Its script tags give way to a short inline script (startAfterFirstPaint) that fetches the
 * app once the page has painted: the page arrives rendered, so its JavaScript only makes it
 * interactive, and fetched with the page it took the slow network from what paints first.
 */
export function readPageTemplate(distDir: string): PageTemplate {
  const styles: string[] = []
  const inlined = readFileSync(join(distDir, 'index.html'), 'utf8').replace(
    STYLESHEET_LINK,
    (_link, href: string) => {
      const css = readFileSync(join(distDir, href), 'utf8')
      styles.push(css)
      return `<style>${css}</style>`
    },
  )
  const entries = [...inlined.matchAll(MODULE_SCRIPT)].map((match) => match[1] as string)
  const preloads = [...inlined.matchAll(MODULE_PRELOAD)].map((match) => match[1] as string)
  const scripts = entries.map((entry) => startAfterFirstPaint(entry, preloads))
  let next = 0
  const page = inlined
    .replace(MODULE_SCRIPT, () => `<script type="module">${scripts[next++] ?? ''}</script>`)
    .replace(MODULE_PRELOAD, '')
  const [beforeHead, afterHead] = splitOnce(page, SLOTS.head)
  const [beforeHtml, afterHtml] = splitOnce(afterHead, SLOTS.html)
  const [beforeData, rest] = splitOnce(afterHtml, SLOTS.data)
  const build = createHash('sha256').update(page).digest('base64url').slice(0, 12)
  return { beforeHead, beforeHtml, beforeData, rest, inline: { styles, scripts }, build }
}

/**
 * The inline script that starts the app (`entry`, with the modules it imports, `preloads`)
 * once the browser reports the page's first contentful paint, which it does after the frame
 * is on the screen; at once in a tab that is hidden, which may never paint, and in a browser
 * that does not report paints. The same text for every page, so the CSP allows it by its hash.
 */
function startAfterFirstPaint(entry: string, preloads: readonly string[]): string {
  return `let started = false
const start = () => {
  if (started) return
  started = true
  for (const href of ${JSON.stringify(preloads)}) {
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    link.href = href
    document.head.append(link)
  }
  import(${JSON.stringify(entry)})
}
if (document.visibilityState === 'hidden' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  start()
} else {
  document.addEventListener('visibilitychange', start, { once: true })
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return
    observer.disconnect()
    setTimeout(start)
  }).observe({ type: 'paint', buffered: true })
}
`
}

function splitOnce(text: string, slot: string): [string, string] {
  const at = text.indexOf(slot)
  if (at < 0) throw new Error(`index.html has no ${slot} slot`)
  return [text.slice(0, at), text.slice(at + slot.length)]
}
