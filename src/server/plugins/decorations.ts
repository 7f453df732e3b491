import type { FastifyRequest } from 'fastify'
import type { ChangeFeed } from '@/application/change-feed'
import type { UseCases } from '@/application/use-cases'
import type { FirstPageCache } from '@/server/services/first-page.cache'
import type { OriginCacheControl } from '@/server/plugins/http-caching'
import type { ServerMetrics } from '@/server/plugins/metrics'

import type { SearchBudget } from '@/server/plugins/search-limit'

/**
 * What the app decorates its Fastify instance with (app.ts), declared once for every route
 * plugin that reads it, as fastify/demo does: none of it travels through plugin options.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** The use cases the server's composition root built. */
    readonly useCases: UseCases
    /** GET /api/news's first page, kept while the database's change signal stands still. */
    readonly firstPage: FirstPageCache
    /** The site's absolute origin for this request: PUBLIC_URL's, or the request's (site-origin.ts). */
    readonly siteOrigin: (request: FastifyRequest) => string
    /** Who may keep an answer holding that origin's links (http-caching.ts). */
    readonly originCacheControl: OriginCacheControl

    /** Spends one of the client's searches (search-limit.ts), on the API and the search page. */
    readonly searchBudget: SearchBudget
    /** Where requests, refusals, cache look-ups and streams are counted (metrics.ts). */
    readonly metrics: ServerMetrics
    /** The live stream's reads (events.routes.ts); decorated only when the app serves it. */
    readonly changeFeed: ChangeFeed
  }
}
