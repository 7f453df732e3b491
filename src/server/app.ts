import { fileURLToPath } from 'node:url'
import compress from '@fastify/compress'
import rateLimit from '@fastify/rate-limit'
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type onRequestAsyncHookHandler,
} from 'fastify'
import fp from 'fastify-plugin'
import type { UseCases } from '@/application/use-cases'
import { runtimeConfigOf, usesOutbox, type ServerConfig } from '@/server/config'
import { BODY_LIMIT_BYTES, registerErrorHandler } from '@/server/error-handler'
import { FirstPageCache } from '@/server/first-page.cache'
import { newsRoutes } from '@/server/news.routes'
import { registerOpenApi } from '@/server/openapi'
import { outboxRoutes } from '@/server/outbox.routes'
import { registerSecurityHeaders } from '@/server/security'
import { spaRoutes } from '@/server/spa.routes'
import { systemRoutes, type HealthCheck } from '@/server/system.routes'

export type AppConfig = Pick<ServerConfig, 'emailjsAccount' | 'emailjsOrigin' | 'writeRateLimit'>

/** What the server composition root hands the app: it never chooses an adapter itself. */
export interface AppOptions {
  readonly useCases: UseCases
  readonly config: AppConfig
  readonly health: HealthCheck
  /** The built single-page app; defaults to `<repo>/dist`. */
  readonly distDir?: string
}

export interface BuildAppOptions extends AppOptions {
  /** Fastify's logger option; off unless given (tests stay quiet). */
  readonly logger?: FastifyServerOptions['logger']
}

export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../dist', import.meta.url))

/** The whole HTTP side as one plugin: security, compression, the API, the outbox and the app. */
export const newsWireApp = fp<AppOptions>(
  async (app, options) => {
    const { useCases, config, health } = options
    const outbox = usesOutbox(config)

    registerErrorHandler(app)
    closeConnectionsOnceIdle(app)
    registerSecurityHeaders(app, outbox ? undefined : config.emailjsOrigin)
    await app.register(compress, { encodings: ['br', 'gzip'] })
    await registerOpenApi(app)

    const writeGuards: onRequestAsyncHookHandler[] = []
    if (config.writeRateLimit > 0) {
      await app.register(rateLimit, {
        global: false,
        max: config.writeRateLimit,
        timeWindow: 60_000,
      })
      // One limiter for every write route, so that the limit counts all of a client's writes.
      const limit = app.rateLimit()
      writeGuards.push(async function writeRateLimit(request, reply) {
        await limit.call(app, request, reply)
      })
    }

    await app.register(newsRoutes, { useCases, cache: new FirstPageCache(), writeGuards })
    await app.register(systemRoutes, { runtimeConfig: runtimeConfigOf(config), health })
    if (outbox) {
      await app.register(outboxRoutes, {
        sendContactMessage: useCases.sendContactMessage,
        writeGuards,
      })
    }
    await app.register(spaRoutes, { distDir: options.distDir ?? DEFAULT_DIST_DIR })
  },
  { name: 'newswire', fastify: '5.x' },
)

/**
 * On close, Fastify lets requests in flight finish but only drops the connections that are idle
 * at that moment; a keep-alive connection whose request finishes later would hold the process
 * until the client lets go. So sweep idle connections until the server has closed.
 */
function closeConnectionsOnceIdle(app: FastifyInstance): void {
  let sweep: NodeJS.Timeout | undefined
  app.addHook('preClose', async () => {
    sweep = setInterval(() => app.server.closeIdleConnections(), 50)
  })
  app.addHook('onClose', async () => clearInterval(sweep))
}

/**
 * One log line per request, when it completes: method, URL, client address, status and time,
 * never a body. Fastify's default adds an 'incoming request' line too, which doubled the cost
 * of logging in `npm run bench:api`.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return
    const entry = { req: request, res: reply, responseTime: reply.elapsedTime }
    if (error) reply.log.error({ ...entry, err: error }, 'request errored')
    else reply.log.info(entry, 'request completed')
  }
}

/** A Fastify instance with the app registered; call `listen()` or `inject()` on it. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT_BYTES,
    // Ids are at most 64 characters; longer path parameters are not routes.
    routerOptions: { maxParamLength: 100 },
  })
  await app.register(newsWireApp, options)
  return app
}
