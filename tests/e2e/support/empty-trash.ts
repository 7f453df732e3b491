import SQLite from 'better-sqlite3'

/**
 * Purges the trash of a worker's throwaway database, as the server's own purge does once
 * TRASH_DAYS have passed, so that each test starts from an empty trash as well as an empty
 * list: deleting through the API only moves posts to the trash. Idempotency keys go too.
 */
export function emptyTrash(databasePath: string): void {
  const db = new SQLite(databasePath)
  try {
    db.pragma('busy_timeout = 5000')
    db.transaction(() => {
      db.exec(
        'delete from news_revision where news_id in (select id from news where deleted_at is not null)',
      )
      db.exec('delete from news where deleted_at is not null')
      db.exec('delete from idempotency_key')
    }).immediate()
  } finally {
    db.close()
  }
}
