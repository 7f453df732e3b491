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
}

export const CONFIG_DEFAULTS = {
  PORT: '3000',
  HOST: 'localhost',
  DATABASE_URL: 'sqlite:./data/newswire.db',
  EMAILJS_ORIGIN: 'https://api.emailjs.com',
  WRITE_RATE_LIMIT: '60',
  DEMO_POSTS: '1',
  TRASH_DAYS: String(DEFAULT_TRASH_DAYS),
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
