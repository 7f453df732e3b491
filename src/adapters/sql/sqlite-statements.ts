import type SQLite from 'better-sqlite3'
import type { SqliteDatabase } from 'kysely'

/** How many distinct SQL texts keep their prepared statement; the app issues a few dozen. */
export const STATEMENT_CACHE_SIZE = 256

/**
 * A better-sqlite3 connection as Kysely's SQLite dialect uses it, with each SQL text prepared
 * once. Kysely prepares every query it runs; SQLite's compiling of the text then cost about as
 * much as running the query itself for a page of posts. Kysely passes the values apart from the
 * text, so the same few texts recur. A statement still being iterated (a stream) is not shared:
 * that query gets a statement of its own. When full, the oldest text is forgotten first.
 * SQLite recompiles a kept statement by itself when a migration changes the schema.
 */
export function withPreparedStatements(
  connection: SQLite.Database,
  size = STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>()
  return {
    prepare(text: string) {
      const kept = statements.get(text)
      if (kept !== undefined && !kept.busy) return kept
      const statement = connection.prepare(text)
      if (kept === undefined) {
        if (statements.size >= size) {
          const oldest = statements.keys().next()
          if (oldest.done !== true) statements.delete(oldest.value)
        }
        statements.set(text, statement)
      }
      return statement
    },
    close() {
      statements.clear()
      connection.close()
    },
  }
}
