import type { PostgresPool, PostgresPoolClient } from 'kysely'
import { DatabaseError, Pool, type PoolClient } from 'pg'

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
 */
export function openPostgresPool(connectionString: string): PostgresPool {
  const pool = new Pool({
    connectionString,
    max: 10,
    application_name: 'newswire',
    // Bounded waits, so that /api/health and requests fail fast instead of hanging.
    connectionTimeoutMillis: 5_000,
    statement_timeout: 10_000,
    idleTimeoutMillis: 30_000,
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
        wrapped = discardedWhenBroken(client)
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
function discardedWhenBroken(client: PoolClient): PostgresPoolClient {
  let lost: Error | undefined
  const query = async (sql: string, parameters: readonly unknown[]) => {
    try {
      return await client.query(sql, [...parameters])
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
    code.startsWith('57P') ||
    error.severity === 'FATAL' ||
    error.severity === 'PANIC'
  )
}
