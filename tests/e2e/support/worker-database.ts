import SQLite from 'better-sqlite3'

/**
 * Purges the trash of a worker's throwaway database, as the server's own purge does once
 * TRASH_DAYS have passed, so that each test starts from an empty trash as well as an empty
 * list: deleting through the API only moves posts to the trash. Idempotency keys go too.
 */
export function emptyTrash(databasePath: string): void {
  inWorkerDatabase(databasePath, [
    'delete from news_revision where news_id in (select id from news where deleted_at is not null)',
    'delete from news where deleted_at is not null',
    'delete from idempotency_key',
  ])
}

/**
 * Lifts every block and protection a test left in the worker's database, so that the next
 * test's visitor and posts start unmoderated (each test has an address of its own, but the
 * site is emptied through the API, which a protection would refuse).
 */
export function liftModeration(databasePath: string): void {
  inWorkerDatabase(databasePath, ['delete from news_protection', 'delete from client_block'])
}

/** Runs `statements` in one transaction, beside the worker's server, which waits its turn. */
function inWorkerDatabase(databasePath: string, statements: readonly string[]): void {
  const db = new SQLite(databasePath)
  try {
    db.pragma('busy_timeout = 5000')
    db.transaction(() => statements.forEach((statement) => db.exec(statement))).immediate()
  } finally {
    db.close()
  }
}
