import { existsSync } from 'node:fs'
import { basename, join, relative, sep } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { sendRenderedPage } from '@/server/services/page-renderer'
import { DETAILS, refuse } from '@/server/services/problem'

export const CACHE_CONTROL = {
  /** index.html names the current hashed files, so it is revalidated every time. */
  index: 'no-cache',
  /** Vite names these by content hash: a new build gives new names. */
  hashed: 'public, max-age=31536000, immutable',
  /** Anything else from public/ keeps its name across builds. */
  other: 'no-cache',
} as const

/**
 * Serves the built single-page app: files from dist/, and every other GET path as a page
 * rendered on the server, so that deep links (/news/abc) work and carry their content. Unknown
 * /api/* paths answer a 404 problem. The built app, and its renderer when pages are rendered
 * here, are the app's `pages` decoration.
 */
export const spaRoutes: FastifyPluginAsync = async (app) => {
  const { distDir, renderer, template } = app.pages
  const built = existsSync(join(distDir, 'index.html'))
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      // One route per built file, found at start: no disk look-up for paths that are not files.
      wildcard: false,
      // index.html is the pages' template, never a page itself: '/' is rendered like the rest.
      index: false,
      allowedPath: (pathname) => template === undefined || pathname !== '/index.html',
      // The build writes each file's .br and .gz (vite.config.ts): sent as they are, as the
      // browser accepts, rather than compressed again on every request.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, path) {
        res.setHeader('cache-control', cacheControlFor(distDir, path))
        // What is sent depends on Accept-Encoding, and caches in between must know it
        // (@fastify/static says nothing of it when it sends a .br or .gz).
        res.setHeader('vary', 'accept-encoding')
      },
    })
  }

  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] ?? '/'
    const page = request.method === 'GET' || request.method === 'HEAD'
    if (path === '/api' || path.startsWith('/api/')) refuse(404, DETAILS.unknownApi)
    if (!page) refuse(404, 'There is nothing at this path.')
    if (!built) refuse(404, 'The app is not built here; run npm run build.')
    // A missing file is a 404; only page paths (which never hold a dot) are deep links.
    if (path.startsWith('/assets/') || basename(path).includes('.')) {
      refuse(404, 'There is no such file.')
    }
    if (template === undefined || renderer === undefined) return reply.sendFile('index.html')
    return sendRenderedPage(app, request, reply, renderer, template)
  }
  // The app's pages are routes, so that @fastify/compress (which hooks routes) compresses them;
  // any other path reaches the not-found handler, which answers the site's 404 page.
  for (const path of template === undefined ? [] : (renderer?.PAGE_PATHS ?? [])) {
    app.get(path, { schema: { hide: true } }, answer)
  }
  app.setNotFoundHandler(answer)
}

export function cacheControlFor(distDir: string, path: string): string {
  if (basename(path) === 'index.html') return CACHE_CONTROL.index
  const inside = relative(distDir, path)
  return inside.startsWith(`assets${sep}`) ? CACHE_CONTROL.hashed : CACHE_CONTROL.other
}
