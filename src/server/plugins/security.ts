import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'

/** Where the app's images come from (see the news list and article screens). */
export const IMAGE_ORIGINS = ['https://picsum.photos', 'https://fastly.picsum.photos'] as const

/** What the pages write inline (page-renderer.ts), which the CSP allows by hash and no more. */
export interface InlineSources {
  readonly styles: readonly string[]
  readonly scripts: readonly string[]
}

const NOTHING_INLINE: InlineSources = { styles: [], scripts: [] }

/**
 * The Content-Security-Policy: the app's own files only, inline only what the pages write by
 * their hashes, images from the image service, and fetches to this origin plus the EmailJS
 * origin when an account is set.
 */
export function cspDirectives(
  emailjsOrigin: string | undefined,
  inline: InlineSources = NOTHING_INLINE,
): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'", ...(emailjsOrigin === undefined ? [] : [emailjsOrigin])],
    'font-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'img-src': ["'self'", 'data:', ...IMAGE_ORIGINS],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    // The pages' start of the app (page-renderer.ts), by its hash: no other inline script runs.
    'script-src': ["'self'", ...inline.scripts.map(sourceHash)],
    'script-src-attr': ["'none'"],
    // The pages' own stylesheet, written into each page (page-renderer.ts), by its hash.
    'style-src': ["'self'", ...inline.styles.map(sourceHash)],
    // Inline style attributes only as the news grid's columns write them, by hash (CSP 3).
    'style-src-attr': ["'unsafe-hashes'", ...GRID_COLUMN_STYLES.map(sourceHash)],
  }
}

/**
 * The style attributes react-masonry-css gives the news grid's columns (one, two or three of
 * them), as React writes them into a server-rendered page. The stylesheet sizes the columns
 * anyway; allowing exactly these keeps the browser from reporting them as violations.
 */
export const GRID_COLUMN_STYLES = ['width:100%', 'width:50%', `width:${100 / 3}%`] as const

/** A CSP source expression for an inline value: its SHA-256, in base64. */
export function sourceHash(value: string): string {
  return `'sha256-${createHash('sha256').update(value).digest('base64')}'`
}

/**
 * Helmet's headers, computed once. The headers never change while the server runs, and
 * @fastify/helmet rebuilds the helmet middleware (parsing the CSP) on every request, which
 * cost about a sixth of the CPU of the cached first page in `npm run bench:api`.
 */
export function securityHeaders(
  emailjsOrigin: string | undefined,
  inline: InlineSources = NOTHING_INLINE,
): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  const collector = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
  }
  const middleware = helmet({
    // useDefaults off: helmet's defaults allow inline styles and upgrade-insecure-requests,
    // which breaks plain-HTTP deployments such as localhost.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: cspDirectives(emailjsOrigin, inline),
    },
  })
  middleware({} as IncomingMessage, collector as unknown as ServerResponse, () => undefined)
  return headers
}

/** Sends the security headers on every answer, errors and static files included. */
export function registerSecurityHeaders(
  app: FastifyInstance,
  emailjsOrigin: string | undefined,
  inline: InlineSources = NOTHING_INLINE,
): void {
  const headers = securityHeaders(emailjsOrigin, inline)
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
}
