import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/** A statement the database ran, as the SQL adapter reports it (its StatementTiming). */
export interface StatementSample {
  readonly kind: string
  readonly seconds: number
  readonly failed: boolean
}

/** The budgets whose refusals (429) are counted. */
export type Budget = 'write' | 'create' | 'search'

/**
 * What the server reports for GET /metrics. The parts of the app that see an event call these;
 * only this file knows prom-client. Every method is cheap and never throws.
 */
export interface ServerMetrics {
  /** Whether anything is recorded: false while neither METRICS_TOKEN nor METRICS_PORT is set. */
  readonly enabled: boolean
  /** A request answered: its route pattern (never the raw URL), status and time taken. */
  request(method: string, route: string, status: number, seconds: number): void
  /** A database statement; a property, so that it can be handed to the SQL adapter as it is. */
  readonly statement: (sample: StatementSample) => void
  /** A request refused (429) because its client spent the budget. */
  budgetRefused(budget: Budget): void
  /** A look-up of the cached first page of GET /api/news. */
  firstPageLookup(hit: boolean): void
  /** A look-up of a rendered page in the page cache; a property, handed to the cache as it is. */
  readonly pageCacheLookup: (hit: boolean) => void
  /** The bytes the page cache holds now. */
  readonly pageCacheBytes: (bytes: number) => void
  /** Where the number of open live streams is read, when a scrape asks for it. */
  countStreams(open: () => number): void
  /** The text a scrape gets, and its content type. */
  exposition(): Promise<{ readonly contentType: string; readonly body: string }>
}

/** Metrics that record nothing: no registry, no timers, no cost per request. */
export const NO_METRICS: ServerMetrics = {
  enabled: false,
  request: () => undefined,
  statement: () => undefined,
  budgetRefused: () => undefined,
  firstPageLookup: () => undefined,
  pageCacheLookup: () => undefined,
  pageCacheBytes: () => undefined,
  countStreams: () => undefined,
  exposition: async () => ({ contentType: 'text/plain', body: '' }),
}

/** Seconds; a page or an API read takes a few ms, a search up to a few hundred. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Seconds; a read by key takes tens of µs on SQLite, a round trip on PostgreSQL about one ms. */
const STATEMENT_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
]

/**
 * Metrics in a registry of their own, never prom-client's global one: two servers in one process
 * (the tests) each report their own. The process's memory, CPU and event-loop delay come from
 * prom-client's default metrics.
 */
export function prometheusMetrics(): ServerMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Histogram({
    name: 'newswire_http_request_duration_seconds',
    help: 'Requests answered, by method, route pattern and status, with the time each took.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  })
  const statements = new Histogram({
    name: 'newswire_db_statement_duration_seconds',
    help: 'Database statements, by kind and outcome, with the time each took.',
    labelNames: ['kind', 'outcome'] as const,
    buckets: STATEMENT_BUCKETS,
    registers: [registry],
  })
  const refusals = new Counter({
    name: 'newswire_budget_refusals_total',
    help: 'Requests refused with 429 because the client had spent its write, create or search budget.',
    labelNames: ['budget'] as const,
    registers: [registry],
  })
  const firstPage = new Counter({
    name: 'newswire_first_page_cache_lookups_total',
    help: 'Look-ups of the cached first page of GET /api/news, by result (hit or miss).',
    labelNames: ['result'] as const,
    registers: [registry],
  })
  const pageCache = new Counter({
    name: 'newswire_page_cache_lookups_total',
    help: 'Look-ups of rendered pages (the list, articles) in the page cache, by result (hit or miss).',
    labelNames: ['result'] as const,
    registers: [registry],
  })
  const pageCacheBytes = new Gauge({
    name: 'newswire_page_cache_bytes',
    help: 'Bytes the page cache holds: each kept page in every encoding (bounded by PAGE_CACHE_MB).',
    registers: [registry],
  })
  let openStreams: () => number = () => 0
  new Gauge({
    name: 'newswire_live_streams',
    help: 'Live streams (GET /api/events) this server holds open.',
    registers: [registry],
    collect() {
      this.set(openStreams())
    },
  })
  // Every series starts at 0, so that a rate over the first refusal or miss is defined.
  for (const budget of ['write', 'search'] as const) refusals.labels(budget).inc(0)
  for (const result of ['hit', 'miss'] as const) firstPage.labels(result).inc(0)
  for (const result of ['hit', 'miss'] as const) pageCache.labels(result).inc(0)

  return {
    enabled: true,
    request(method, route, status, seconds) {
      requests.labels(method, route, String(status)).observe(seconds)
    },
    statement: ({ kind, seconds, failed }) =>
      statements.labels(kind, failed ? 'error' : 'ok').observe(seconds),
    budgetRefused: (budget) => refusals.labels(budget).inc(),
    firstPageLookup: (hit) => firstPage.labels(hit ? 'hit' : 'miss').inc(),
    pageCacheLookup: (hit) => pageCache.labels(hit ? 'hit' : 'miss').inc(),
    pageCacheBytes: (bytes) => pageCacheBytes.set(bytes),
    countStreams(open) {
      openStreams = open
    },
    async exposition() {
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
  }
}
