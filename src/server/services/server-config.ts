import type { DatabaseTarget } from '@/application/database-target'
import type { EmailJsSettings, RuntimeConfig } from '@/application/runtime-config'

/*
 * What the server is configured with: the composition root reads it from the environment
 * (composition/server/read-config.ts) and hands it to the app.
 */

/** An EmailJS account: when set, the browser sends mail to EmailJS itself and the outbox is off. */
export interface EmailJsAccount {
  readonly serviceId: string
  readonly templateId: string
  readonly publicKey: string
}

/** The server's settings, read and checked once at start (README, Configuration; read by composition/server/read-config.ts). */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  /** DATABASE_URL, read: the SQL adapter opens it as it is. */
  readonly database: DatabaseTarget
  /** Undefined when no EmailJS account is set: the built-in outbox answers instead. */
  readonly emailjsAccount: EmailJsAccount | undefined
  readonly emailjsOrigin: string
  /** Writes per minute per client address; 0 turns the limit off. */
  readonly writeRateLimit: number
  /** New posts per hour per client, beside writeRateLimit; 0 turns it off (enforced later). */
  readonly createRateLimit: number
  /** Searches (API and page) per minute per client address; 0 turns the budget off. */
  readonly searchRateLimit: number
  readonly demoPosts: boolean
  /** Days a deleted post stays restorable in the trash before it is purged with its history. */
  readonly trashDays: number
  /**
   * The reverse proxies whose X-Forwarded-For is believed, as Fastify's `trustProxy` takes
   * them: false (the default: the header is ignored), a hop count, or addresses and CIDRs.
   */
  readonly trustProxy: TrustProxy
  /**
   * PUBLIC_URL's origin: the site's own origin, for links that leave the page (canonical, feed,
   * sitemap, previews) and the outbox's Origin check. Undefined (the default) takes it from each
   * request: its scheme and Host (site-origin.ts).
   */
  readonly publicOrigin: string | undefined
  /** How long a client may take over its request and between requests (connection-limits.ts). */
  readonly timeouts: Timeouts
  /** Open connections the server holds at most; more are closed as they arrive. */
  readonly maxConnections: number
  /**
   * Live streams (GET /api/events) the server holds open at most, at most half of
   * `maxConnections`, so that the rest stay free for requests; more answer 503.
   */
  readonly maxStreams: number
  /**
   * Open connections one client address may hold; 0 turns the cap off. Applies only while
   * TRUST_PROXY is off: behind a proxy every visitor arrives from the proxy's address.
   */
  readonly maxConnectionsPerAddress: number
  /** The least severe log lines written (LOG_LEVEL). */
  readonly logLevel: LogLevel
  /**
   * Whether request log lines carry the client's address (LOG_ADDRESSES); otherwise they carry
   * its pseudonym, as the history does (pseudonyms.ts).
   */
  readonly logAddresses: boolean
  /** GET /metrics on the main port answers requests that bear this token; 404 while unset. */
  readonly metricsToken: string | undefined
  /** A second port, on 127.0.0.1 only, that answers GET /metrics without a token. */
  readonly metricsPort: number | undefined
  /** What the page cache may hold, in bytes (PAGE_CACHE_MB); 0 keeps no page. */
  readonly pageCacheBytes: number
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

export type LogLevel = (typeof LOG_LEVELS)[number]

/** The client timeouts, in milliseconds (the variables give them in seconds). */
export interface Timeouts {
  /** The whole request, headers and body, must arrive within this; 408 otherwise. */
  readonly requestMs: number
  /** The headers must arrive within this, a shorter bound than the whole request. */
  readonly headersMs: number
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveMs: number
}

export type TrustProxy = false | number | readonly string[]

/**
 * The ids the SPA sends to the built-in outbox. They are not secrets: they only tell the
 * outbox that the form came from this app, as EmailJS's ids do.
 */
export const OUTBOX_IDS = {
  serviceId: 'newswire_outbox',
  templateId: 'contact_form',
  publicKey: 'newswire-outbox',
} as const

/** The body of GET /api/config: the real account, or the outbox on this server's own origin. */
export function runtimeConfigOf(
  config: Pick<ServerConfig, 'emailjsAccount' | 'emailjsOrigin'>,
): RuntimeConfig {
  const emailjs: EmailJsSettings =
    config.emailjsAccount === undefined
      ? { origin: '', ...OUTBOX_IDS }
      : { origin: config.emailjsOrigin, ...config.emailjsAccount }
  return { emailjs }
}

export function usesOutbox(config: Pick<ServerConfig, 'emailjsAccount'>): boolean {
  return config.emailjsAccount === undefined
}
