import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { ServerMetrics } from '@/server/plugins/metrics'
import { refuse } from '@/server/services/problem'

export const METRICS_PATH = '/metrics'

/** The only address the metrics port listens on: a scraper on the same machine, or a tunnel. */
export const METRICS_HOST = '127.0.0.1'

export const NO_METRICS_DETAIL = 'There is nothing at this path.'
export const METRICS_TOKEN_DETAIL = 'GET /metrics needs the bearer token METRICS_TOKEN names.'

/**
 * Records every answer's route and status, and serves the metrics: on the main port to a bearer
 * of METRICS_TOKEN, and on METRICS_PORT to anyone on this machine. Otherwise GET /metrics is a
 * 404 like any unknown path, so that nothing about the server is told to the public. Reads the
 * app's decorated metrics and configuration.
 */
export function registerMetrics(app: FastifyInstance): void {
  const { metrics } = app
  if (metrics.enabled) {
    app.addHook('onResponse', async (request, reply) => {
      // The route's pattern (/api/news/:id), never the URL: the label's values stay few.
      const route = request.routeOptions.url ?? 'unmatched'
      metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000)
    })
  }

  const { metricsToken: token, metricsPort: port } = app.config
  const bearer = token === undefined ? undefined : bearerCheck(token)
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (bearer === undefined) refuse(404, NO_METRICS_DETAIL)
    if (!bearer(request.headers.authorization)) {
      refuse(401, METRICS_TOKEN_DETAIL, { 'www-authenticate': 'Bearer realm="metrics"' })
    }
    return sendMetrics(metrics, reply)
  })

  if (port !== undefined) serveOnLocalPort(app, metrics, port)
}

async function sendMetrics(metrics: ServerMetrics, reply: FastifyReply): Promise<FastifyReply> {
  const { contentType, body } = await metrics.exposition()
  return reply.header('cache-control', 'no-store').type(contentType).send(body)
}

/**
 * Whether an Authorization header bears `token`. Both sides are hashed first, so that the
 * comparison takes the same time whatever the header holds, its length included.
 */
function bearerCheck(token: string): (header: string | undefined) => boolean {
  const expected = digest(token)
  return (header) => {
    const given = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1] ?? ''
    return timingSafeEqual(digest(given), expected)
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

/**
 * A plain node:http server on METRICS_HOST:`port`, started when the app is ready (before the
 * main port listens, so that a port already taken fails the start) and closed with the app.
 */
function serveOnLocalPort(app: FastifyInstance, metrics: ServerMetrics, port: number): void {
  let server: Server | undefined
  app.addHook('onReady', async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '').split('?', 1)[0]
      if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        response.end(`Only GET ${METRICS_PATH} is served here.\n`)
        return
      }
      metrics.exposition().then(
        ({ contentType, body }) => {
          response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' })
          response.end(request.method === 'HEAD' ? undefined : body)
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics could not be collected')
          response.writeHead(500).end()
        },
      )
    })
    await listenOn(server, port)
    const { port: bound } = server.address() as AddressInfo
    app.log.info(
      { metricsUrl: `http://${METRICS_HOST}:${bound}${METRICS_PATH}` },
      `metrics on http://${METRICS_HOST}:${bound}${METRICS_PATH}`,
    )
  })
  app.addHook('onClose', async () => {
    if (server === undefined) return
    const closing = new Promise<void>((resolve) => server?.close(() => resolve()))
    server.closeAllConnections()
    await closing
  })
}

function listenOn(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(metricsPortError(port, error)))
    server.listen({ port, host: METRICS_HOST, exclusive: true }, () => resolve())
  })
}

/**
 * Why METRICS_PORT cannot be bound, in words that name it (not PORT, which a bare EADDRINUSE
 * would be taken for).
 */
export function metricsPortError(port: number, cause: unknown): Error {
  const code = (cause as { code?: unknown } | null)?.code
  const reason = code === 'EADDRINUSE' ? 'is already in use' : `cannot be bound (${String(code)})`
  return new Error(
    `METRICS_PORT ${port} on ${METRICS_HOST} ${reason}; set METRICS_PORT to a free port.`,
    { cause },
  )
}
