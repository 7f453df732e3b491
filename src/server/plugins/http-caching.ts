import type { FastifyInstance, FastifyReply } from 'fastify'
import { API_CACHE_CONTROL } from '@/contract/api-cache-control'

/**
 * The Cache-Control of the answers whose body links under the site's origin (site-origin.ts):
 * the feed, the sitemaps and robots.txt (`read`), and the rendered pages (`page`).
 */
export interface OriginCacheControl {
  readonly read: string
  /** A page rendered for each request (forms, search, history, trash): revalidated every time. */
  readonly page: string
  /**
   * A page the page cache keeps (the list, an article), which has an ETag: a CDN may keep it a
   * few seconds and revalidate it in the background for a minute.
   */
  readonly keptPage: string
}

/**
 * With PUBLIC_URL the links are the same for every request, and any cache may keep them as it
 * keeps the lists. Without it they come from the request's Host (or a trusted proxy's
 * X-Forwarded-Host), which a client chooses: a shared cache keyed on the path would hand one
 * client's links to everyone, and many CDNs ignore `Vary: Host`. So then only the client's own
 * cache may keep them (`private`), for the same time.
 */
export function originCacheControl(publicOrigin: string | undefined): OriginCacheControl {
  return publicOrigin === undefined
    ? {
        read: 'private, max-age=5, stale-while-revalidate=60',
        page: 'private, no-cache',
        keptPage: 'private, no-cache',
      }
    : {
        read: API_CACHE_CONTROL.read,
        page: 'no-cache',
        keptPage: 'public, max-age=0, s-maxage=5, stale-while-revalidate=60',
      }
}

/** Every answer whose body may be compressed varies by it; lowercase, as @fastify/compress adds it. */
export const VARY_ENCODING = 'accept-encoding'

/**
 * Marks every /api answer `no-store` before its route runs; the routes that may be cached say so
 * when they answer, so a problem, a 429 or a write can never be kept by a cache by mistake. The
 * app's files (spa.routes.ts) set their own.
 */
export function registerNoStoreByDefault(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/api')) reply.header('cache-control', API_CACHE_CONTROL.none)
    done()
  })
}

/** The headers of a cacheable read, on its 200 and on its 304 alike. */
export function cacheableRead(
  reply: FastifyReply,
  etag: string,
  cacheControl: string = API_CACHE_CONTROL.read,
): FastifyReply {
  return reply.headers({ etag, 'cache-control': cacheControl, vary: VARY_ENCODING })
}

/** 304 Not Modified: the validator and caching headers of the 200, and no body. */
export function sendNotModified(
  reply: FastifyReply,
  etag: string,
  cacheControl: string = API_CACHE_CONTROL.read,
): FastifyReply {
  return cacheableRead(reply, etag, cacheControl).code(304).send()
}
