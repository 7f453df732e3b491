import { isIP } from 'node:net'
import { envSchema } from 'env-schema'
import {
  DATABASE_URL_FORMS,
  readDatabaseUrl,
  type DatabaseTarget,
} from '@/application/database-target'
import {
  DEFAULT_HEADERS_TIMEOUT_S,
  DEFAULT_MAX_STREAMS,
  ENV_SCHEMA,
  SECRETS,
  type CheckedEnv,
} from '@/composition/server/env.schema'
import { ConfigError } from '@/server/services/config-error'
import type {
  EmailJsAccount,
  ServerConfig,
  Timeouts,
  TrustProxy,
} from '@/server/services/server-config'

type Env = Readonly<Record<string, string | undefined>>

/** A whole number is written in digits; Ajv alone would also read 1e3 or 0x10 as one. */
const DIGITS = /^\d+$/

type Variable = keyof typeof ENV_SCHEMA.properties

/** What the messages read of a variable's schema. */
interface Property {
  readonly type?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly description?: string
  readonly enum?: readonly string[]
}

// TypeBox types the properties by what they check; their JSON Schema keywords are plain data.
const PROPERTIES = ENV_SCHEMA.properties as unknown as Readonly<Record<Variable, Property>>

const VARIABLES = Object.keys(ENV_SCHEMA.properties) as Variable[]

type Problems = Map<Variable, string>

/** A switch's word (env.schema.ts's `choice` of 1, true, 0, false) read as on or off. */
const isOn = (word: string): boolean => word === '1' || word === 'true'

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
    createRateLimit: checked.CREATE_RATE_LIMIT,
    searchRateLimit: checked.SEARCH_RATE_LIMIT,
    demoPosts: isOn(checked.DEMO_POSTS),
    trashDays: checked.TRASH_DAYS,
    trustProxy: proxies(checked.TRUST_PROXY, problems),
    publicOrigin:
      checked.PUBLIC_URL === undefined
        ? undefined
        : origin('PUBLIC_URL', checked.PUBLIC_URL, problems),
    timeouts: timeouts(checked, problems),
    maxConnections: checked.MAX_CONNECTIONS,
    maxConnectionsPerAddress: checked.MAX_CONNECTIONS_PER_ADDRESS,
    pageCacheBytes: checked.PAGE_CACHE_MB * 1024 * 1024,
    maxStreams: maxStreams(checked, problems),
    logLevel: checked.LOG_LEVEL,
    logAddresses: isOn(checked.LOG_ADDRESSES),
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
    given[name] = PROPERTIES[name].enum !== undefined ? raw.toLowerCase() : raw
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
    problems.set(name, `${name} must be ${expected(PROPERTIES[name])}${got}`)
    delete valid[name]
  }
  for (const name of VARIABLES) {
    const raw = valid[name]
    if (PROPERTIES[name].type === 'integer' && raw !== undefined && !DIGITS.test(raw)) {
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
  if (property.minimum !== undefined) {
    return `a whole number from ${property.minimum} to ${property.maximum}`
  }
  return property.description ?? `a ${property.type}`
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
