import { isIP } from 'node:net'
import { envSchema } from 'env-schema'
import {
  DATABASE_URL_FORMS,
  readDatabaseUrl,
  type DatabaseTarget,
} from '@/application/database-target'
import type { EmailJsSettings, RuntimeConfig } from '@/application/runtime-config'
import { DEFAULT_TRASH_DAYS } from '@/domain/rules/news-history.rules'
import { ConfigError } from '@/server/config-error'

export { ConfigError }

/** An EmailJS account: when set, the browser sends mail to EmailJS itself and the outbox is off. */
export interface EmailJsAccount {
  readonly serviceId: string
  readonly templateId: string
  readonly publicKey: string
}

/** The server's settings, read and checked once at start (README, Configuration). */
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
  /** GET /metrics on the main port answers requests that bear this token; 404 while unset. */
  readonly metricsToken: string | undefined
  /** A second port, on 127.0.0.1 only, that answers GET /metrics without a token. */
  readonly metricsPort: number | undefined
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

/** An hour: a client timeout longer than that is a typo. */
const MAX_TIMEOUT_S = 3600

const DEFAULT_HEADERS_TIMEOUT_S = 10

/**
 * Live streams a server holds by default: a thousand readers, with as many connections again
 * (MAX_CONNECTIONS, 2000) kept for requests.
 */
export const DEFAULT_MAX_STREAMS = 1000

/** Ten years: far past any use, small enough that the purge's cutoff stays a valid date. */
export const MAX_TRASH_DAYS = 3650

/**
 * The ids the SPA sends to the built-in outbox. They are not secrets: they only tell the
 * outbox that the form came from this app, as EmailJS's ids do.
 */
export const OUTBOX_IDS = {
  serviceId: 'newswire_outbox',
  templateId: 'contact_form',
  publicKey: 'newswire-outbox',
} as const

type Env = Readonly<Record<string, string | undefined>>

/** A whole number is written in digits; Ajv alone would also read 1e3 or 0x10 as one. */
const DIGITS = /^\d+$/

/**
 * The variables, with their types, ranges and defaults (README, Configuration),
 * checked by env-schema. What JSON Schema cannot say (the forms of DATABASE_URL, TRUST_PROXY
 * and EMAILJS_ORIGIN, and the EmailJS all-or-none rule) is checked by the functions after it.
 */
const ENV_SCHEMA = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65_535, default: 3000 },
    HOST: { type: 'string', default: 'localhost' },
    DATABASE_URL: { type: 'string', default: 'sqlite:./data/newswire.db' },
    EMAILJS_SERVICE_ID: { type: 'string' },
    EMAILJS_TEMPLATE_ID: { type: 'string' },
    EMAILJS_PUBLIC_KEY: { type: 'string' },
    EMAILJS_ORIGIN: { type: 'string', default: 'https://api.emailjs.com' },
    WRITE_RATE_LIMIT: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 60 },
    SEARCH_RATE_LIMIT: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 60 },
    DEMO_POSTS: {
      type: 'string',
      enum: ['1', 'true', '0', 'false'],
      default: '1',
      description: '1 or 0',
    },
    TRASH_DAYS: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_TRASH_DAYS,
      default: DEFAULT_TRASH_DAYS,
    },
    TRUST_PROXY: { type: 'string', default: 'off' },
    PUBLIC_URL: { type: 'string' },
    REQUEST_TIMEOUT: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_S, default: 30 },
    // Unset: DEFAULT_HEADERS_TIMEOUT_S, or REQUEST_TIMEOUT when that is shorter.
    HEADERS_TIMEOUT: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_S },
    KEEP_ALIVE_TIMEOUT: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_S, default: 5 },
    MAX_CONNECTIONS: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 2000 },
    MAX_CONNECTIONS_PER_ADDRESS: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 100 },
    // Unset: DEFAULT_MAX_STREAMS, or half of MAX_CONNECTIONS when that is fewer.
    MAX_STREAMS: { type: 'integer', minimum: 0, maximum: 500_000 },
    LOG_LEVEL: {
      type: 'string',
      enum: LOG_LEVELS,
      default: 'info',
      description: `one of ${LOG_LEVELS.join(', ')}`,
    },
    // A bearer token (RFC 6750's characters), long enough not to be guessed.
    METRICS_TOKEN: {
      type: 'string',
      pattern: '^[A-Za-z0-9._~+/-]{16,256}=*$',
      description: 'at least 16 characters of A-Z a-z 0-9 . _ ~ + / -',
    },
    METRICS_PORT: { type: 'integer', minimum: 0, maximum: 65_535 },
  },
} as const

/** Variables whose value is never repeated in an error message. */
const SECRETS: ReadonlySet<string> = new Set(['METRICS_TOKEN'])

type Variable = keyof typeof ENV_SCHEMA.properties
type Property = (typeof ENV_SCHEMA.properties)[Variable]

/** The variables as env-schema answers them: typed, with the defaults filled in. */
interface CheckedEnv {
  readonly PORT: number
  readonly HOST: string
  readonly DATABASE_URL: string
  readonly EMAILJS_SERVICE_ID?: string
  readonly EMAILJS_TEMPLATE_ID?: string
  readonly EMAILJS_PUBLIC_KEY?: string
  readonly EMAILJS_ORIGIN: string
  readonly WRITE_RATE_LIMIT: number
  readonly SEARCH_RATE_LIMIT: number
  readonly DEMO_POSTS: string
  readonly TRASH_DAYS: number
  readonly TRUST_PROXY: string
  readonly PUBLIC_URL?: string
  readonly REQUEST_TIMEOUT: number
  readonly HEADERS_TIMEOUT?: number
  readonly KEEP_ALIVE_TIMEOUT: number
  readonly MAX_CONNECTIONS: number
  readonly MAX_CONNECTIONS_PER_ADDRESS: number
  readonly MAX_STREAMS?: number
  readonly LOG_LEVEL: LogLevel
  readonly METRICS_TOKEN?: string
  readonly METRICS_PORT?: number
}

const VARIABLES = Object.keys(ENV_SCHEMA.properties) as Variable[]

type Problems = Map<Variable, string>

/** Reads the server's variables; an empty value counts as unset. Throws ConfigError. */
export function readConfig(env: Env): ServerConfig {
  const problems: Problems = new Map()
  const checked = checkSchema(givenVariables(env), problems)
  const config: ServerConfig = {
    port: checked.PORT,
    host: checked.HOST,
    database: databaseTarget(checked.DATABASE_URL, problems),
    emailjsAccount: account(checked, problems),
    emailjsOrigin: origin('EMAILJS_ORIGIN', checked.EMAILJS_ORIGIN, problems),
    writeRateLimit: checked.WRITE_RATE_LIMIT,
    searchRateLimit: checked.SEARCH_RATE_LIMIT,
    demoPosts: checked.DEMO_POSTS === '1' || checked.DEMO_POSTS === 'true',
    trashDays: checked.TRASH_DAYS,
    trustProxy: proxies(checked.TRUST_PROXY, problems),
    publicOrigin:
      checked.PUBLIC_URL === undefined
        ? undefined
        : origin('PUBLIC_URL', checked.PUBLIC_URL, problems),
    timeouts: timeouts(checked, problems),
    maxConnections: checked.MAX_CONNECTIONS,
    maxConnectionsPerAddress: checked.MAX_CONNECTIONS_PER_ADDRESS,
    maxStreams: maxStreams(checked, problems),
    logLevel: checked.LOG_LEVEL,
    metricsToken: checked.METRICS_TOKEN,
    metricsPort: metricsPort(checked, problems),
  }
  if (problems.size > 0) {
    throw new ConfigError(VARIABLES.flatMap((name) => problems.get(name) ?? []))
  }
  return config
}

/** The variables the schema knows that are set: trimmed, and an empty value left out. */
function givenVariables(env: Env): Partial<Record<Variable, string>> {
  const given: Partial<Record<Variable, string>> = {}
  for (const name of VARIABLES) {
    const raw = env[name]?.trim()
    if (raw === undefined || raw === '') continue
    // The words of a choice (1, true, 0, false) are read whatever their case.
    given[name] = 'enum' in ENV_SCHEMA.properties[name] ? raw.toLowerCase() : raw
  }
  return given
}

/**
 * Checks the types and ranges with env-schema. Each bad variable gets one line in `problems`,
 * and its default stands in, so that the checks after this one still run and report too.
 */
function checkSchema(given: Partial<Record<Variable, string>>, problems: Problems): CheckedEnv {
  const valid = { ...given }
  const refuse = (name: Variable): void => {
    const got = SECRETS.has(name) ? '' : `, got "${given[name]}"`
    problems.set(name, `${name} must be ${expected(ENV_SCHEMA.properties[name])}${got}`)
    delete valid[name]
  }
  for (const name of VARIABLES) {
    const raw = valid[name]
    if (ENV_SCHEMA.properties[name].type === 'integer' && raw !== undefined && !DIGITS.test(raw)) {
      refuse(name)
    }
  }
  // Ajv compiles the schema once and keeps it; env: false reads `env`, not process.env.
  const check = (data: Partial<Record<Variable, string>>): CheckedEnv =>
    envSchema<CheckedEnv>({ schema: ENV_SCHEMA, data: { ...data }, env: false })
  try {
    return check(valid)
  } catch (error) {
    const failed = failedVariables(error)
    if (failed.length === 0) throw error
    failed.forEach(refuse)
    return check(valid)
  }
}

/** What a variable must be, in the words of its schema. */
function expected(property: Property): string {
  if ('minimum' in property) return `a whole number from ${property.minimum} to ${property.maximum}`
  return 'description' in property ? property.description : `a ${property.type}`
}

/** The variables named by env-schema's (Ajv's) errors. */
function failedVariables(error: unknown): Variable[] {
  const errors = (error as { errors?: unknown }).errors
  if (!Array.isArray(errors)) return []
  const names = errors.map((each: { instancePath?: unknown }) =>
    typeof each.instancePath === 'string' ? each.instancePath.slice(1) : '',
  )
  return VARIABLES.filter((name) => names.includes(name))
}

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

function databaseTarget(raw: string, problems: Problems): DatabaseTarget {
  const target = readDatabaseUrl(raw)
  if (target !== undefined) return target
  // Never echo the value: a PostgreSQL URL may carry a password.
  problems.set('DATABASE_URL', DATABASE_URL_FORMS)
  return { engine: 'sqlite', path: ':memory:' }
}

const ORIGIN_EXAMPLES = {
  EMAILJS_ORIGIN: 'https://api.emailjs.com',
  PUBLIC_URL: 'https://news.example.com',
} as const

/** An http(s) origin, with nothing after it but an optional slash. */
function origin(name: keyof typeof ORIGIN_EXAMPLES, raw: string, problems: Problems): string {
  if (URL.canParse(raw)) {
    const url = new URL(raw)
    const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === ''
    if ((url.protocol === 'https:' || url.protocol === 'http:') && bare) return url.origin
  }
  problems.set(name, `${name} must be an origin such as ${ORIGIN_EXAMPLES[name]}, got "${raw}"`)
  return raw
}

/** Node refuses a headers timeout longer than the request's, so it is checked here. */
function timeouts(checked: CheckedEnv, problems: Problems): Timeouts {
  const request = checked.REQUEST_TIMEOUT
  const headers = checked.HEADERS_TIMEOUT ?? Math.min(DEFAULT_HEADERS_TIMEOUT_S, request)
  if (headers > request) {
    problems.set(
      'HEADERS_TIMEOUT',
      `HEADERS_TIMEOUT must not exceed REQUEST_TIMEOUT (${request}), got "${headers}"`,
    )
  }
  return {
    requestMs: request * 1000,
    headersMs: Math.min(headers, request) * 1000,
    keepAliveMs: checked.KEEP_ALIVE_TIMEOUT * 1000,
  }
}

/** Streams may take at most half of the connections: the other half stays for requests. */
function maxStreams(checked: CheckedEnv, problems: Problems): number {
  const half = Math.floor(checked.MAX_CONNECTIONS / 2)
  const streams = checked.MAX_STREAMS ?? Math.min(DEFAULT_MAX_STREAMS, half)
  if (streams <= half) return streams
  problems.set(
    'MAX_STREAMS',
    `MAX_STREAMS must be at most half of MAX_CONNECTIONS (${half}), so that the rest stay for requests, got "${streams}"`,
  )
  return half
}

/** The metrics' own port: not the main one, which it would take first on 127.0.0.1. */
function metricsPort(checked: CheckedEnv, problems: Problems): number | undefined {
  const port = checked.METRICS_PORT
  if (port === undefined || port === 0 || port !== checked.PORT) return port
  problems.set('METRICS_PORT', `METRICS_PORT must differ from PORT, got "${port}"`)
  return undefined
}

/** More hops than any real chain of proxies; a bigger count is a typo. */
const MAX_PROXY_HOPS = 10

/** Names proxy-addr (Fastify's trustProxy) knows for whole ranges of private addresses. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/**
 * TRUST_PROXY: `off` (or 0, false), a hop count, or a comma-separated list of addresses, CIDRs
 * and proxy-addr's range names. `true` is refused: trusting every hop lets any client choose
 * its own address, and so its own write budget.
 */
function proxies(raw: string, problems: Problems): TrustProxy {
  const lower = raw.toLowerCase()
  if (lower === 'off' || lower === 'false' || lower === '0') return false
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw)
    if (hops <= MAX_PROXY_HOPS) return hops
  } else {
    const entries = raw.split(',').map((entry) => entry.trim())
    if (entries.every(isProxyAddress)) return entries
  }
  problems.set(
    'TRUST_PROXY',
    `TRUST_PROXY must be off, a hop count from 1 to ${MAX_PROXY_HOPS}, or comma-separated proxy addresses or CIDRs (e.g. 10.0.0.0/8,::1), got "${raw}"`,
  )
  return false
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry.toLowerCase())) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  const bits = /^\d+$/.test(prefix) ? Number(prefix) : Number.NaN
  return bits >= 0 && bits <= (version === 4 ? 32 : 128)
}

const ACCOUNT_VARIABLES = {
  serviceId: 'EMAILJS_SERVICE_ID',
  templateId: 'EMAILJS_TEMPLATE_ID',
  publicKey: 'EMAILJS_PUBLIC_KEY',
} as const

function account(checked: CheckedEnv, problems: Problems): EmailJsAccount | undefined {
  const serviceId = checked[ACCOUNT_VARIABLES.serviceId]
  const templateId = checked[ACCOUNT_VARIABLES.templateId]
  const publicKey = checked[ACCOUNT_VARIABLES.publicKey]
  if (serviceId !== undefined && templateId !== undefined && publicKey !== undefined) {
    return { serviceId, templateId, publicKey }
  }
  const missing = Object.values(ACCOUNT_VARIABLES).filter((name) => checked[name] === undefined)
  if (missing.length < 3) {
    problems.set(
      ACCOUNT_VARIABLES.serviceId,
      `Set all of EMAILJS_SERVICE_ID, EMAILJS_TEMPLATE_ID and EMAILJS_PUBLIC_KEY, or none of them for the built-in outbox; missing: ${missing.join(', ')}`,
    )
  }
  return undefined
}
