import { normalizeIP } from '@fastify/rate-limit'
import { UNKNOWN_EDITOR, type Editor } from '@/domain/editor'
import type { Pseudonymizer } from '@/server/services/pseudonyms'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { ChangeFeed } from '@/application/change-feed'
import type { ClientBlock } from '@/domain/moderation.entity'
import type { UseCases } from '@/application/use-cases'
import type { ChangeSignal } from '@/application/ports/change-signal.port'
import type { RateLimitCounter } from '@/application/ports/rate-limit-counter.port'
import type { StreamLeases } from '@/application/ports/stream-leases.port'
import { originCacheControl, type OriginCacheControl } from '@/server/plugins/http-caching'
import type { ServerMetrics } from '@/server/plugins/metrics'
import { searchBudget, UNLIMITED_SEARCHES, type SearchBudget } from '@/server/plugins/search-limit'
import type { EventStreamSettings } from '@/server/services/event-stream'
import { FirstPageCache } from '@/server/services/first-page.cache'
import type { HealthCheck } from '@/server/services/health'
import { PageCache, type PageCacheEvents } from '@/server/services/page-cache'
import type { PageRenderer } from '@/server/services/page-renderer'
import type { PageTemplate } from '@/server/services/page-template'
import type { ServerConfig } from '@/server/services/server-config'
import { siteOrigin } from '@/server/services/site-origin'
import type { SitemapFiles } from '@/server/services/sitemap-files'

/** The part of the server's configuration the app reads. */
export type AppConfig = Pick<
  ServerConfig,
  | 'emailjsAccount'
  | 'emailjsOrigin'
  | 'writeRateLimit'
  | 'createRateLimit'
  | 'searchRateLimit'
  | 'trustProxy'
  | 'publicOrigin'
  | 'timeouts'
  | 'maxConnections'
  | 'maxConnectionsPerAddress'
  | 'maxStreams'
  | 'metricsToken'
  | 'metricsPort'
  | 'pageCacheBytes'
>

/** The built single-page app and, when the server renders its pages, the renderer. */
export interface Pages {
  /** The built app (vite build's outDir). */
  readonly distDir: string
  /**
   * The app's server entry, which renders each page (page-renderer.ts), with the built
   * index.html as the pages' template: both or neither. Without them, every page path gets the
   * built index.html as it is, and the browser renders the page.
   */
  readonly renderer?: PageRenderer
  readonly template?: PageTemplate
}

/** The live stream's parts, all given or none: without them GET /api/events is not served. */
export interface LiveStream {
  readonly changeFeed: ChangeFeed
  readonly changeSignal: ChangeSignal
  readonly streamLeases: StreamLeases
}

/**
 * What the app decorates its Fastify instance with, declared once for every plugin and route
 * that reads it, as fastify/demo does: none of it travels through a route's plugin options.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** The part of the server's configuration the app reads. */
    readonly config: AppConfig
    /** The use cases the server's composition root built. */
    readonly useCases: UseCases
    /** Whether the database answers, and where its schema stands (GET /api/health). */
    readonly health: HealthCheck
    /** The server's version, package.json's. */
    readonly appVersion: string
    /** The built app, and its renderer when pages are rendered here (spa.routes.ts). */
    readonly pages: Pages
    /** GET /api/news's first page, kept while the database's change signal stands still. */
    readonly firstPage: FirstPageCache
    /** The rendered list and articles, kept while the site's version stands still (page-cache.ts). */
    readonly pageCache: PageCache
    /** Rendered search pages, kept the same way, in a share of PAGE_CACHE_MB of their own. */
    readonly searchPageCache: PageCache
    /** Who a request's writes are recorded as: its client's pseudonym (pseudonyms.ts). */
    readonly editorOf: (request: FastifyRequest) => Editor
    /**
     * What a client's budgets and live-stream leases are counted under in the database: its
     * pseudonym, so that no address is stored; its address (IPv6 by its /64) only in an app
     * built without a pseudonymizer, as some tests build it.
     */
    readonly clientKeyOf: (request: FastifyRequest) => string
    /** The operator's block on a request's client, if one holds now (block-guard.ts). */
    readonly blockOn: BlockLookup
    /** The site's absolute origin for this request: PUBLIC_URL's, or the request's (site-origin.ts). */
    readonly siteOrigin: (request: FastifyRequest) => string
    /** Who may keep an answer holding that origin's links (http-caching.ts). */
    readonly originCacheControl: OriginCacheControl
    /** Spends one of the client's searches (search-limit.ts), on the API and the search page. */
    readonly searchBudget: SearchBudget
    /** Where requests, refusals, cache look-ups and streams are counted (metrics.ts). */
    readonly metrics: ServerMetrics
    /** The live streams' heartbeat, polling and caps (event-stream.ts). */
    readonly eventStreamSettings: EventStreamSettings
    /** The sitemap's files of a database; undefined without one (site-files.routes.ts walks). */
    readonly sitemapFiles: SitemapFiles | undefined
    /** The live stream's reads (events.routes.ts); decorated only when the app serves it. */
    readonly changeFeed: ChangeFeed
    /** The change signal the stream's watcher reads; decorated only with the stream. */
    readonly changeSignal: ChangeSignal
    /** Where open streams are counted per client; decorated only with the stream. */
    readonly streamLeases: StreamLeases
  }
}

/** The block that holds now on a client, named by its pseudonym and its address. */
export type BlockLookup = (
  editor: Editor,
  address: string | undefined,
) => Promise<ClientBlock | undefined>

const NO_BLOCKS: BlockLookup = async () => undefined

/** The share of PAGE_CACHE_MB that search pages may hold; the rest is the other pages'. */
const SEARCH_PAGE_SHARE = 0.25

/**
 * The page caches within PAGE_CACHE_MB: search pages in a share of their own, so that a flood of
 * distinct queries pushes out older searches, never the list and the articles. The metrics
 * count the lookups of both, and the bytes they hold together.
 */
function pageCaches(
  signal: ChangeSignal | undefined,
  bytes: number,
  metrics: ServerMetrics,
): { readonly pages: PageCache; readonly searches: PageCache } {
  const searchBytes = Math.floor(bytes * SEARCH_PAGE_SHARE)
  const held: PageCache[] = []
  const events: PageCacheEvents = {
    lookup: metrics.pageCacheLookup,
    size: () => metrics.pageCacheBytes(held.reduce((sum, cache) => sum + cache.bytes, 0)),
  }
  const pages = new PageCache(signal, bytes - searchBytes, events)
  // Most searches are asked once: compressing them hard would cost more than their render.
  const searches = new PageCache(signal, searchBytes, events, 'quick')
  held.push(pages, searches)
  return { pages, searches }
}

/** What the app builder hands the decorations, from which the shared things are made. */
export interface Shared {
  readonly config: AppConfig
  readonly useCases: UseCases
  readonly health: HealthCheck
  readonly appVersion: string
  readonly pages: Pages
  readonly metrics: ServerMetrics
  readonly eventStreamSettings: EventStreamSettings
  readonly rateLimitCounter: RateLimitCounter | undefined
  /** The database's change signal, which the cached first page is checked against. */
  readonly changeSignal: ChangeSignal | undefined
  /** A client address's pseudonym; writes record `unknown` without it. */
  readonly pseudonymOf: Pseudonymizer | undefined
  /** Where the operator's blocks are read; nobody is blocked without it. */
  readonly blocks: BlockLookup | undefined
  readonly liveStream: LiveStream | undefined
  readonly sitemapFiles: SitemapFiles | undefined
}

/**
 * Decorates the app with everything its plugins and routes share: the one place shared things
 * are handed in. A fastify-plugin, so that the decorations reach the app and every sibling.
 */
export const decorations = fp<Shared>(
  async (app, shared) => {
    const { config, metrics, rateLimitCounter } = shared
    app.decorate('config', config)
    app.decorate('useCases', shared.useCases)
    app.decorate('health', shared.health)
    app.decorate('appVersion', shared.appVersion)
    app.decorate('pages', shared.pages)
    app.decorate('metrics', metrics)
    app.decorate('eventStreamSettings', shared.eventStreamSettings)
    app.decorate('sitemapFiles', shared.sitemapFiles)
    app.decorate(
      'searchBudget',
      config.searchRateLimit > 0 && rateLimitCounter !== undefined
        ? searchBudget(
            config.searchRateLimit,
            rateLimitCounter,
            app.log,
            (request) => app.clientKeyOf(request),
            () => metrics.budgetRefused('search'),
          )
        : UNLIMITED_SEARCHES,
    )
    app.decorate('firstPage', new FirstPageCache(shared.changeSignal, metrics.firstPageLookup))
    const { pages, searches } = pageCaches(shared.changeSignal, config.pageCacheBytes, metrics)
    app.decorate('pageCache', pages)
    app.decorate('searchPageCache', searches)
    const { pseudonymOf } = shared
    // Node forgets a socket's address once its client has gone, whatever the types say.
    const addressOf = (request: FastifyRequest) => request.ip as string | undefined
    app.decorate('editorOf', (request: FastifyRequest) =>
      pseudonymOf === undefined ? UNKNOWN_EDITOR : pseudonymOf(addressOf(request)),
    )
    app.decorate('clientKeyOf', (request: FastifyRequest) =>
      pseudonymOf === undefined
        ? normalizeIP(addressOf(request) ?? '')
        : pseudonymOf(addressOf(request)),
    )
    app.decorate('blockOn', shared.blocks ?? NO_BLOCKS)
    app.decorate('siteOrigin', (request: FastifyRequest) =>
      siteOrigin(request, config.publicOrigin),
    )
    app.decorate('originCacheControl', originCacheControl(config.publicOrigin))
    if (shared.liveStream !== undefined) {
      app.decorate('changeFeed', shared.liveStream.changeFeed)
      app.decorate('changeSignal', shared.liveStream.changeSignal)
      app.decorate('streamLeases', shared.liveStream.streamLeases)
    }
  },
  { name: 'newswire-decorations', fastify: '5.x' },
)
