import { isIP } from 'node:net'
import type { EmailJsSettings, RuntimeConfig } from '@/application/runtime-config'
import { DEFAULT_TRASH_DAYS } from '@/domain/rules/news-history.rules'

/** An EmailJS account: when set, the browser sends mail to EmailJS itself and the outbox is off. */
export interface EmailJsAccount {
  readonly serviceId: string
  readonly templateId: string
  readonly publicKey: string
}

/** The server's settings, read and checked once at start (see DESIGN.md, runtime configuration). */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string
  /** Undefined when no EmailJS account is set: the built-in outbox answers instead. */
  readonly emailjsAccount: EmailJsAccount | undefined
  readonly emailjsOrigin: string
  /** Writes per minute per client address; 0 turns the limit off. */
  readonly writeRateLimit: number
  readonly demoPosts: boolean
  /** Days a deleted post stays restorable in the trash before it is purged with its history. */
  readonly trashDays: number
  /**
   * The reverse proxies whose X-Forwarded-For is believed, as Fastify's `trustProxy` takes
   * them: false (the default: the header is ignored), a hop count, or addresses and CIDRs.
   */
  readonly trustProxy: TrustProxy
}

export type TrustProxy = false | number | readonly string[]

export const CONFIG_DEFAULTS = {
  PORT: '3000',
  HOST: 'localhost',
  DATABASE_URL: 'sqlite:./data/newswire.db',
  EMAILJS_ORIGIN: 'https://api.emailjs.com',
  WRITE_RATE_LIMIT: '60',
  DEMO_POSTS: '1',
  TRASH_DAYS: String(DEFAULT_TRASH_DAYS),
  TRUST_PROXY: 'off',
} as const

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

/** Thrown by `readConfig` with one line per bad variable, so that an operator fixes all at once. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

type Env = Readonly<Record<string, string | undefined>>

/** Reads the server's variables; an empty value counts as unset. Throws ConfigError. */
export function readConfig(env: Env): ServerConfig {
  const problems: string[] = []
  const value = (name: keyof typeof CONFIG_DEFAULTS): string =>
    given(env, name) ?? CONFIG_DEFAULTS[name]

  const port = integer('PORT', value('PORT'), 0, 65_535, problems)
  const host = value('HOST')
  const databaseUrl = value('DATABASE_URL')
  if (!isDatabaseUrl(databaseUrl)) {
    // Never echo the value: a PostgreSQL URL may carry a password.
    problems.push(
      'DATABASE_URL must be sqlite:PATH (or sqlite::memory:) or postgres://USER@HOST/DB',
    )
  }
  const writeRateLimit = integer(
    'WRITE_RATE_LIMIT',
    value('WRITE_RATE_LIMIT'),
    0,
    1_000_000,
    problems,
  )
  const demoPosts = flag('DEMO_POSTS', value('DEMO_POSTS'), problems)
  const trashDays = integer('TRASH_DAYS', value('TRASH_DAYS'), 1, MAX_TRASH_DAYS, problems)
  const trustProxy = proxies('TRUST_PROXY', value('TRUST_PROXY'), problems)
  const emailjsOrigin = origin('EMAILJS_ORIGIN', value('EMAILJS_ORIGIN'), problems)
  const emailjsAccount = account(env, problems)

  if (problems.length > 0) throw new ConfigError(problems)
  return {
    port,
    host,
    databaseUrl,
    emailjsAccount,
    emailjsOrigin,
    writeRateLimit,
    demoPosts,
    trashDays,
    trustProxy,
  }
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

function given(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim()
  return raw === undefined || raw === '' ? undefined : raw
}

function integer(name: string, raw: string, min: number, max: number, problems: string[]): number {
  const parsed = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (Number.isSafeInteger(parsed) && parsed >= min && parsed <= max) return parsed
  problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return min
}

function flag(name: string, raw: string, problems: string[]): boolean {
  const lower = raw.toLowerCase()
  if (lower === '1' || lower === 'true') return true
  if (lower === '0' || lower === 'false') return false
  problems.push(`${name} must be 1 or 0, got "${raw}"`)
  return false
}

function origin(name: string, raw: string, problems: string[]): string {
  try {
    const url = new URL(raw)
    const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === ''
    if ((url.protocol === 'https:' || url.protocol === 'http:') && bare) return url.origin
  } catch {
    // Reported below.
  }
  problems.push(`${name} must be an origin such as https://api.emailjs.com, got "${raw}"`)
  return raw
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
function proxies(name: string, raw: string, problems: string[]): TrustProxy {
  const lower = raw.toLowerCase()
  if (lower === 'off' || lower === 'false' || lower === '0') return false
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw)
    if (hops <= MAX_PROXY_HOPS) return hops
  } else {
    const entries = raw.split(',').map((entry) => entry.trim())
    if (entries.every(isProxyAddress)) return entries
  }
  problems.push(
    `${name} must be off, a hop count from 1 to ${MAX_PROXY_HOPS}, or comma-separated proxy addresses or CIDRs (e.g. 10.0.0.0/8,::1), got "${raw}"`,
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

function isDatabaseUrl(raw: string): boolean {
  if (raw.startsWith('sqlite:')) return raw.length > 'sqlite:'.length
  if (!/^postgres(ql)?:\/\//.test(raw)) return false
  return URL.canParse(raw)
}

const ACCOUNT_VARIABLES = {
  serviceId: 'EMAILJS_SERVICE_ID',
  templateId: 'EMAILJS_TEMPLATE_ID',
  publicKey: 'EMAILJS_PUBLIC_KEY',
} as const

function account(env: Env, problems: string[]): EmailJsAccount | undefined {
  const serviceId = given(env, ACCOUNT_VARIABLES.serviceId)
  const templateId = given(env, ACCOUNT_VARIABLES.templateId)
  const publicKey = given(env, ACCOUNT_VARIABLES.publicKey)
  if (serviceId !== undefined && templateId !== undefined && publicKey !== undefined) {
    return { serviceId, templateId, publicKey }
  }
  const missing = Object.entries({ serviceId, templateId, publicKey })
    .filter(([, set]) => set === undefined)
    .map(([key]) => ACCOUNT_VARIABLES[key as keyof typeof ACCOUNT_VARIABLES])
  if (missing.length < 3) {
    problems.push(
      `Set all of EMAILJS_SERVICE_ID, EMAILJS_TEMPLATE_ID and EMAILJS_PUBLIC_KEY, or none of them for the built-in outbox; missing: ${missing.join(', ')}`,
    )
  }
  return undefined
}
