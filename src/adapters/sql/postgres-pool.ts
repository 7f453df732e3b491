import type { PostgresPool, PostgresPoolClient } from 'kysely'
import { DatabaseError, Pool, types, type CustomTypesConfig, type PoolClient } from 'pg'

/**
 * PostgreSQL's connection pool as Kysely uses it, made to outlive dropped connections. A
 * restart, a failover or pg_terminate_backend ends the server's sessions (57P01), and each pg
 * client whose connection ends emits 'error'. pg-pool listens for it only while a client is idle
 * in the pool; on a client in use (in a transaction, between two statements) the event had no
 * listener and ended the process. So:
 * - every client gets a listener as it connects; the statement that was running, or the next
 *   one, fails instead, and storage-failure.ts turns that into Unavailable (503);
 * - a client whose statement failed for want of a connection goes back to pg-pool with that
 *   error, which closes it instead of lending it again, so that the pool heals: new clients
 *   connect once the database answers again.
 *
 * With `preparedStatements`, the statements the server sends again and again are prepared once
 * on each connection (PreparedNames), so that PostgreSQL parses and plans them once there.
 */
export function openPostgresPool(
  connectionString: string,
  { preparedStatements }: { readonly preparedStatements: boolean },
): PostgresPool {
  const names = preparedStatements ? new PreparedNames() : undefined
  const pool = new Pool({
    connectionString,
    max: 10,
    application_name: 'newswire',
    // Bounded waits, so that /api/health and requests fail fast instead of hanging.
    connectionTimeoutMillis: 5_000,
    statement_timeout: 10_000,
    idleTimeoutMillis: 30_000,
    types: INSTANTS_AS_ISO,
  })
  // An idle client that loses its server is removed by the pool, which then emits here.
  pool.on('error', () => undefined)
  // The failure reaches the statements that use the client; the event itself says nothing more.
  pool.on('connect', (client) => client.on('error', () => undefined))
  const clients = new WeakMap<PoolClient, PostgresPoolClient>()
  return {
    async connect() {
      const client = await pool.connect()
      // Kysely knows a client by identity, so each pg client keeps one wrapper.
      let wrapped = clients.get(client)
      if (wrapped === undefined) {
        wrapped = discardedWhenBroken(client, names)
        clients.set(client, wrapped)
      }
      return wrapped
    },
    end: () => pool.end(),
  }
}

/**
 * The client as Kysely sees it, remembering a failure that left its connection unusable and
 * releasing it with that failure. pg-pool finds a dead client by itself only once its socket
 * has closed, which can come after the statement's error has been handed back and the client
 * released: it would then be lent to the next request, and fail that one too.
 */
function discardedWhenBroken(
  client: PoolClient,
  names: PreparedNames | undefined,
): PostgresPoolClient {
  let lost: Error | undefined
  const query = async (sql: string, parameters: readonly unknown[]) => {
    const name = names?.nameOf(sql)
    try {
      return name === undefined
        ? await client.query(sql, [...parameters])
        : await client.query({ name, text: sql, values: [...parameters] })
    } catch (error) {
      if (connectionLost(error)) lost ??= error instanceof Error ? error : new Error(String(error))
      throw error
    }
  }
  return {
    // Kysely passes a cursor only when the dialect is given one, and NewsWire gives none; and
    // pg's result names its command with any string where Kysely lists the five it reads.
    query: query as unknown as PostgresPoolClient['query'],
    release: () => client.release(lost),
  }
}

/**
 * Whether a statement's failure means that its connection is gone: an error that is not the
 * server's answer (a closed socket, a client already broken), a connection exception (class
 * 08), an operator's intervention such as admin_shutdown (57P01 to 57P05), or any error the
 * server calls FATAL, which ends the session. An ordinary error (a constraint, a serialization
 * failure, a cancelled statement) leaves the connection fit for the next one.
 */
function connectionLost(error: unknown): boolean {
  if (!(error instanceof DatabaseError)) return true
  const code = error.code ?? ''
  return (
    code.startsWith('08') ||
    // A prepared statement the connection can no longer run: one whose table another server's
    // migration changed (0A000, cached plan must not change result type), or one the server does
    // not have (26000; a pooler that keeps no prepared statements). A fresh connection has none.
    code === '0A000' ||
    code === '26000' ||
    code.startsWith('57P') ||
    error.severity === 'FATAL' ||
    error.severity === 'PANIC'
  )
}

/**
 * The names of the statements worth preparing, for the connections of one pool. A statement is
 * named the second time its text is seen, so that one-off statements (a migration, a list of
 * ids of a rare length) stay unnamed; each name always stands for the same text, which pg
 * prepares on a connection the first time that connection runs it, and then only binds and
 * executes. Bounded: at most NAMED statements are ever named (each connection may hold them
 * all, PostgreSQL keeping their plans), and the texts seen once are forgotten by the thousand.
 * As psycopg bounds its automatic preparation, which prepares a statement after a few runs and
 * keeps at most a hundred.
 */
export class PreparedNames {
  static readonly NAMED = 200
  static readonly SEEN = 1_000
  private readonly named = new Map<string, string>()
  private readonly seenOnce = new Set<string>()

  /** The name to run `sql` under, or undefined to run it unnamed. */
  nameOf(sql: string): string | undefined {
    const name = this.named.get(sql)
    if (name !== undefined || this.named.size >= PreparedNames.NAMED) return name
    if (!this.seenOnce.has(sql)) {
      if (this.seenOnce.size >= PreparedNames.SEEN) this.seenOnce.clear()
      this.seenOnce.add(sql)
      return undefined
    }
    this.seenOnce.delete(sql)
    const next = `newswire_${this.named.size + 1}`
    this.named.set(sql, next)
    return next
  }
}

const TIMESTAMPTZ = 1184
// PostgreSQL's text for a timestamptz in UTC (DateStyle ISO, TimeZone UTC): 2026-01-02
// 03:04:05.678+00, the fraction trimmed of its zeros, or absent.
const POSTGRES_UTC_INSTANT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/

/**
 * A timestamptz read as the ISO instant the stores hand on (toISOString's form), straight from
 * PostgreSQL's text when the session's time zone is UTC: the driver's own parser made a Date
 * that the stores printed again, about a twentieth of a server's CPU under the mixed load, a
 * page holding three instants a post. Any other text (another time zone) goes to the driver's
 * parser, as before. The fraction is cut to milliseconds, as a Date cuts it.
 */
export function isoInstantOf(text: string): string | Date {
  const parts = POSTGRES_UTC_INSTANT.exec(text)
  if (parts === null) return defaultInstantParser(text)
  const [, date, time, fraction = ''] = parts
  return `${date}T${time}.${fraction.padEnd(3, '0').slice(0, 3)}Z`
}

const defaultInstantParser = types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date

const INSTANTS_AS_ISO: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary'
      ? isoInstantOf
      : types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
}
