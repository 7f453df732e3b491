import type { Pseudonymizer } from '@/server/services/pseudonyms'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import compress from '@fastify/compress'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { ChangeFeed } from '@/application/change-feed'
import type { UseCases } from '@/application/use-cases'
import type { ChangeSignal } from '@/application/ports/change-signal.port'
import type { RateLimitCounter } from '@/application/ports/rate-limit-counter.port'
import type { StreamLeases } from '@/application/ports/stream-leases.port'
import type { SitemapSource } from '@/application/ports/sitemap-source.port'
import {
  answerClientError,
  capConnections,
  timeoutOptions,
} from '@/server/plugins/connection-limits'
import { decorations, type AppConfig, type BlockLookup } from '@/server/plugins/decorations'
import {
  answerFrameworkError,
  BODY_LIMIT_BYTES,
  registerErrorHandler,
} from '@/server/plugins/error-handler'
import { registerNoStoreByDefault } from '@/server/plugins/http-caching'
import {
  OneLinePerRequest,
  registerRequestIds,
  REQUEST_ID_HEADER,
  requestIdOf,
} from '@/server/plugins/logging'
import { NO_METRICS, prometheusMetrics, type ServerMetrics } from '@/server/plugins/metrics'
import { registerOpenApi } from '@/server/plugins/openapi'
import { registerSecurityHeaders } from '@/server/plugins/security'
import { registerWriteBudget } from '@/server/plugins/write-limit'
import { registerBlockGuard } from '@/server/plugins/block-guard'
import { changesRoutes } from '@/server/routes/changes.routes'
import { eventsRoutes } from '@/server/routes/events.routes'
import { registerMetrics } from '@/server/routes/metrics.routes'
import { newsRoutes } from '@/server/routes/news.routes'
import { outboxRoutes } from '@/server/routes/outbox.routes'
import { siteFilesRoutes } from '@/server/routes/site-files.routes'
import { spaRoutes } from '@/server/routes/spa.routes'
import { systemRoutes } from '@/server/routes/system.routes'
import { EVENT_STREAM_DEFAULTS, type EventStreamSettings } from '@/server/services/event-stream'
import type { HealthCheck } from '@/server/services/health'
import type { PageRenderer } from '@/server/services/page-renderer'
import { readPageTemplate } from '@/server/services/page-template'
import { usesOutbox, type ServerConfig } from '@/server/services/server-config'
import { SitemapFiles } from '@/server/services/sitemap-files'
import { readVersion } from '@/server/services/version'

export type { AppConfig } from '@/server/plugins/decorations'

/** What the server composition root hands the app: it never chooses an adapter itself. */
export interface AppOptions {
  readonly useCases: UseCases
  readonly config: AppConfig
  readonly health: HealthCheck
  /**
   * Where the write limit and the search budget count, shared by every server on the database;
   * needed when `config.writeRateLimit` or `config.searchRateLimit` is above 0.
   */
  readonly rateLimitCounter?: RateLimitCounter
  /**
   * The database's change signal, which the cached first page is checked against on every
   * read, so that a write on any server shows at once. Without it nothing is cached.
   */
  readonly changeSignal?: ChangeSignal
  /**
   * The live stream's reads (GET /api/events). The stream is served only when this, the
   * change signal and `streamLeases` are all given.
   */
  readonly changeFeed?: ChangeFeed
  /** Where open live streams are counted per client, shared by every server on the database. */
  readonly streamLeases?: StreamLeases
  /** The live streams' heartbeat, polling and caps; EVENT_STREAM_DEFAULTS unless given. */
  readonly events?: Partial<EventStreamSettings>
  /** The built single-page app; defaults to `<repo>/dist`. */
  readonly distDir?: string
  /** The app's server entry, which renders pages (see page-renderer.ts). */
  readonly renderer?: PageRenderer
  /**
   * Where requests, refusals, cache look-ups and streams are counted; by default prom-client's
   * when METRICS_TOKEN or METRICS_PORT is set, else nothing (metricsFor).
   */
  readonly metrics?: ServerMetrics
  /**
   * A client address's pseudonym (pseudonyms.ts), which each write records as its editor; the
   * same on every server of the database. Without it writes are recorded as `unknown`.
   */
  readonly pseudonymOf?: Pseudonymizer
  /**
   * The operator's block on a client, if one holds now (block-guard.ts), read from the database
   * every server shares. Without it no write is refused as blocked.
   */
  readonly blocks?: BlockLookup
  /**
   * What the sitemap reads of the database (sitemap-files.ts), so that it never walks the posts.
   * Without it the sitemap is walked through the list use case (the in-memory store's).
   */
  readonly sitemapSource?: SitemapSource
  /** How many posts a sitemap file covers; 50,000 (the protocol's bound) unless given (tests). */
  readonly sitemapFilePosts?: number
}

export interface BuildAppOptions extends AppOptions {
  /** Fastify's logger option; off unless given (tests stay quiet). */
  readonly logger?: FastifyServerOptions['logger']
}

/**
 * The project's folder: the nearest above this module that holds package.json, whether the
 * server runs from its sources or compiled into dist-node/.
 */
function projectFolder(): string {
  let folder = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) {
    folder = dirname(folder)
  }
  return folder
}

export const DEFAULT_DIST_DIR = join(projectFolder(), 'dist')

/**
 * The whole HTTP side as one plugin: security, caching headers, compression, the API, the outbox
 * and the app. What the plugins and routes share is decorated on the instance, in one place
 * (plugins/decorations.ts), never handed to a route as plugin options; the write routes opt into
 * the write limit by their route config (write-limit.ts).
 */
export const newsWireApp = fp<AppOptions>(
  async (app, options) => {
    const { useCases, config, health, rateLimitCounter, renderer } = options
    const { changeFeed, changeSignal, streamLeases } = options
    const outbox = usesOutbox(config)
    const distDir = options.distDir ?? DEFAULT_DIST_DIR
    // The pages' template, read once: the CSP allows what it writes inline by hash.
    const template =
      renderer !== undefined && existsSync(join(distDir, 'index.html'))
        ? readPageTemplate(distDir)
        : undefined
    if (config.writeRateLimit > 0 && rateLimitCounter === undefined) {
      throw new Error('A write rate limit needs a rateLimitCounter to count in.')
    }
    if (config.searchRateLimit > 0 && rateLimitCounter === undefined) {
      throw new Error('A search rate limit needs a rateLimitCounter to count in.')
    }
    if (config.createRateLimit > 0 && rateLimitCounter === undefined) {
      throw new Error('A create rate limit needs a rateLimitCounter to count in.')
    }

    registerRequestIds(app)
    registerErrorHandler(app)
    closeConnectionsOnceIdle(app)
    await app.register(decorations, {
      config,
      useCases,
      health,
      appVersion: readVersion(projectFolder()),
      pages: {
        distDir,
        ...(renderer === undefined || template === undefined ? {} : { renderer, template }),
      },
      metrics: options.metrics ?? metricsFor(config),
      eventStreamSettings: { ...EVENT_STREAM_DEFAULTS, ...options.events },
      rateLimitCounter,
      changeSignal,
      pseudonymOf: options.pseudonymOf,
      blocks: options.blocks,
      sitemapFiles:
        options.sitemapSource === undefined
          ? undefined
          : new SitemapFiles(options.sitemapSource, options.sitemapFilePosts),
      liveStream:
        changeFeed !== undefined && changeSignal !== undefined && streamLeases !== undefined
          ? { changeFeed, changeSignal, streamLeases }
          : undefined,
    })
    registerMetrics(app)
    registerSecurityHeaders(app, outbox ? undefined : config.emailjsOrigin, template?.inline)
    registerNoStoreByDefault(app)
    await app.register(compress, { encodings: ['br', 'gzip'] })
    await registerOpenApi(app)
    registerBlockGuard(app)
    if (config.writeRateLimit > 0 && rateLimitCounter !== undefined) {
      registerWriteBudget(app, 'writeLimit', config.writeRateLimit, rateLimitCounter)
    }
    if (config.createRateLimit > 0 && rateLimitCounter !== undefined) {
      registerWriteBudget(app, 'createLimit', config.createRateLimit, rateLimitCounter)
    }

    await app.register(newsRoutes)
    await app.register(changesRoutes)
    if (app.hasDecorator('changeFeed')) await app.register(eventsRoutes)
    await app.register(systemRoutes)
    if (outbox) await app.register(outboxRoutes)
    await app.register(siteFilesRoutes)
    await app.register(spaRoutes)
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

/** prom-client's metrics when they are served somewhere, else none: nothing counted, no cost. */
export function metricsFor(
  config: Pick<ServerConfig, 'metricsToken' | 'metricsPort'>,
): ServerMetrics {
  return config.metricsToken !== undefined || config.metricsPort !== undefined
    ? prometheusMetrics()
    : NO_METRICS
}

/** A Fastify instance with the app registered; call `listen()` or `inject()` on it. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new OneLinePerRequest(),
    // X-Request-Id: the client's or proxy's when sane, else a new one (logging.ts).
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Off unless TRUST_PROXY names the proxies: only then does X-Forwarded-For set request.ip,
    // which the write limit counts by.
    trustProxy: trustProxyOption(config.trustProxy),
    // Ids are at most 64 characters; longer path parameters are not routes.
    routerOptions: { maxParamLength: 100 },
    // A request that reaches a stopping server is served (with Connection: close), not refused
    // with a 503: the database closes only after the last request in flight has finished.
    return503OnClosing: false,
    // A slow client is cut off (408) and an idle one let go, so that sockets stay free.
    ...timeoutOptions(config.timeouts),
    clientErrorHandler: answerClientError,
    // Answered before any hook runs, so the request id is set here too.
    frameworkErrors: (error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id)
      answerFrameworkError(error, request, reply)
    },
  })
  // Behind a proxy every visitor shares the proxy's address; the proxy must cut slow clients.
  capConnections(app.server, {
    total: config.maxConnections,
    perAddress: config.trustProxy === false ? config.maxConnectionsPerAddress : 0,
  })
  await app.register(newsWireApp, options)
  return app
}

/**
 * TRUST_PROXY as Fastify takes it. Fastify 5 ignores a bare hop count (it cannot tell the
 * proxy from a client that connects directly), so a count becomes Express's rule: trust the
 * first `hops` addresses, counting back from the connection. The operator vouches that the
 * server is reachable only through those proxies (docs/operations.md).
 */
function trustProxyOption(
  trustProxy: ServerConfig['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trustProxy === false) return false
  if (typeof trustProxy === 'number') {
    const hops = trustProxy
    return (_address, hop) => hop < hops
  }
  return [...trustProxy]
}
