import { Type, type Static } from 'typebox'
import { DEFAULT_TRASH_DAYS } from '@/domain/rules/news-history.rules'
import { LOG_LEVELS } from '@/server/services/server-config'

/** An hour: a client timeout longer than that is a typo. */
export const MAX_TIMEOUT_S = 3600

export const DEFAULT_HEADERS_TIMEOUT_S = 10

/**
 * Live streams a server holds by default: a thousand readers, with as many connections again
 * (MAX_CONNECTIONS, 2000) kept for requests.
 */
export const DEFAULT_MAX_STREAMS = 1000

/** Ten years: far past any use, small enough that the purge's cutoff stays a valid date. */
export const MAX_TRASH_DAYS = 3650

/**
 * The variables, with their types, ranges and defaults (README, Configuration), checked by
 * env-schema; the type of what it answers is derived from this schema. What JSON Schema cannot
 * say (the forms of DATABASE_URL, TRUST_PROXY and EMAILJS_ORIGIN, and the EmailJS all-or-none
 * rule) is checked by read-config.ts after it.
 */
export const ENV_SCHEMA = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65_535, default: 3000 }),
  HOST: Type.String({ default: 'localhost' }),
  DATABASE_URL: Type.String({ default: 'sqlite:./data/newswire.db' }),
  EMAILJS_SERVICE_ID: Type.Optional(Type.String()),
  EMAILJS_TEMPLATE_ID: Type.Optional(Type.String()),
  EMAILJS_PUBLIC_KEY: Type.Optional(Type.String()),
  EMAILJS_ORIGIN: Type.String({ default: 'https://api.emailjs.com' }),
  WRITE_RATE_LIMIT: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 60 }),
  CREATE_RATE_LIMIT: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 10 }),
  SEARCH_RATE_LIMIT: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 60 }),
  DEMO_POSTS: choice(['1', 'true', '0', 'false'] as const, { default: '1', description: '1 or 0' }),
  TRASH_DAYS: Type.Integer({ minimum: 1, maximum: MAX_TRASH_DAYS, default: DEFAULT_TRASH_DAYS }),
  TRUST_PROXY: Type.String({ default: 'off' }),
  PUBLIC_URL: Type.Optional(Type.String()),
  REQUEST_TIMEOUT: Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_S, default: 30 }),
  // Unset: DEFAULT_HEADERS_TIMEOUT_S, or REQUEST_TIMEOUT when that is shorter.
  HEADERS_TIMEOUT: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_S })),
  KEEP_ALIVE_TIMEOUT: Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_S, default: 5 }),
  MAX_CONNECTIONS: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 2000 }),
  MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 100 }),
  // Unset: DEFAULT_MAX_STREAMS, or half of MAX_CONNECTIONS when that is fewer.
  MAX_STREAMS: Type.Optional(Type.Integer({ minimum: 0, maximum: 500_000 })),
  LOG_LEVEL: choice(LOG_LEVELS, {
    default: 'info',
    description: `one of ${LOG_LEVELS.join(', ')}`,
  }),
  // A bearer token (RFC 6750's characters), long enough not to be guessed.
  METRICS_TOKEN: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9._~+/-]{16,256}=*$',
      description: 'at least 16 characters of A-Z a-z 0-9 . _ ~ + / -',
    }),
  ),
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65_535 })),
  PAGE_CACHE_MB: Type.Integer({ minimum: 0, maximum: 65_536, default: 64 }),
  LOG_ADDRESSES: choice(['1', 'true', '0', 'false'] as const, {
    default: '0',
    description: '1 or 0',
  }),
})

/** The variables as env-schema answers them: typed, with the defaults filled in. */
export type CheckedEnv = Readonly<Static<typeof ENV_SCHEMA>>

/** One of a few words, as a JSON Schema enum (which env-schema's messages name). */
function choice<const Words extends readonly string[]>(
  words: Words,
  options: { readonly default: Words[number]; readonly description: string },
) {
  return Type.Unsafe<Words[number]>({ type: 'string', enum: words, ...options })
}

/** Variables whose value is never repeated in an error message. */
export const SECRETS: ReadonlySet<string> = new Set(['METRICS_TOKEN'])
