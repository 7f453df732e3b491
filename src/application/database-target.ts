/**
 * DATABASE_URL, read once: the configuration parses it into a DatabaseTarget and the SQL adapter
 * opens what that names. It lives here, inward of both, so that neither reads the URL again.
 */
export type Engine = 'sqlite' | 'postgres'

export type DatabaseTarget =
  | {
      readonly engine: 'sqlite'
      /** A file path, relative to the working directory, or `:memory:`. */
      readonly path: string
    }
  | PostgresTarget

export interface PostgresTarget {
  readonly engine: 'postgres'
  readonly connectionString: string
  /** Where the server is, as an operator would look for it: no user, no password. */
  readonly host: string
  readonly port: number
  /**
   * Whether statements sent again and again are prepared once per connection: on unless
   * the URL says `prepared_statements=off`, for a pooler that keeps no prepared statements
   * (PgBouncer before 1.21, or without max_prepared_statements).
   */
  readonly preparedStatements: boolean
}

/** The one message for a DATABASE_URL that cannot be read; never the value, which may hold a password. */
export const DATABASE_URL_FORMS =
  'DATABASE_URL must be sqlite:PATH (or sqlite::memory:) or postgres://USER:PASSWORD@HOST:PORT/DB (with ?prepared_statements=on or off, if any)'

const SQLITE_PREFIX = 'sqlite:'
const POSTGRES_URL = /^postgres(?:ql)?:\/\//i
const POSTGRES_PORT = 5432
const PREPARED_STATEMENTS = 'prepared_statements'

/**
 * Reads `sqlite:PATH`, `sqlite::memory:`, or `postgres://…` / `postgresql://…`; undefined for
 * anything else (the caller says DATABASE_URL_FORMS).
 */
export function readDatabaseUrl(raw: string): DatabaseTarget | undefined {
  const url = raw.trim()
  if (url.startsWith(SQLITE_PREFIX)) {
    const path = url.slice(SQLITE_PREFIX.length)
    return path === '' ? undefined : { engine: 'sqlite', path }
  }
  if (!POSTGRES_URL.test(url) || !URL.canParse(url)) return undefined
  const parsed = new URL(url)
  // libpq also takes the host (for example a socket folder) and the port from the query.
  const host = parsed.searchParams.get('host') ?? (parsed.hostname || 'localhost')
  const port = Number(parsed.searchParams.get('port') ?? (parsed.port || POSTGRES_PORT))
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return undefined
  // NewsWire's own setting, which the driver is not given.
  const prepared = parsed.searchParams.get(PREPARED_STATEMENTS)
  if (prepared !== null && prepared !== 'on' && prepared !== 'off') return undefined
  parsed.searchParams.delete(PREPARED_STATEMENTS)
  return {
    engine: 'postgres',
    connectionString: prepared === null ? url : parsed.href,
    host,
    port,
    preparedStatements: prepared !== 'off',
  }
}

/** Like readDatabaseUrl, for callers that hold a URL they trust: throws DATABASE_URL_FORMS. */
export function parseDatabaseUrl(raw: string): DatabaseTarget {
  const target = readDatabaseUrl(raw)
  if (target === undefined) throw new Error(DATABASE_URL_FORMS)
  return target
}

/** The target as it may be logged: a PostgreSQL password becomes ***. */
export function describeDatabase(target: DatabaseTarget): string {
  if (target.engine === 'sqlite') return `${SQLITE_PREFIX}${target.path}`
  const url = new URL(target.connectionString)
  if (url.password !== '') url.password = '***'
  return url.toString()
}
