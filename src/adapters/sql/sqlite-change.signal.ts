import SQLite from 'better-sqlite3'
import type { ChangeSignal } from '@/application/ports/change-signal.port'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'

/**
 * The change signal of a SQLite file, read on a connection of its own with one prepared
 * statement. The first-page cache asks it before every read; through Kysely that lookup cost
 * about 15 µs, a third of the whole cached answer, against 1 or 2 µs here. The file is in WAL
 * mode, so each lookup sees every commit made before it, by this process or another, and never
 * waits for a writer. The row is the one SqlNewsStore raises in each write's transaction.
 */
export class SqliteChangeSignal implements ChangeSignal {
  private readonly connection: SQLite.Database
  private readonly lookup: SQLite.Statement<[], { version: number | bigint }>

  constructor(
    path: string,
    private readonly onError?: StorageErrorListener,
  ) {
    this.connection = new SQLite(path, { fileMustExist: true })
    // A lookup runs on the event loop: when the file is busy (only while a WAL is being
    // recovered) it fails at once, and the read is served uncached, rather than block.
    this.connection.pragma('busy_timeout = 0')
    this.lookup = this.connection.prepare('select version from site_version where id = 1')
  }

  version(): Promise<number> {
    let row: { version: number | bigint } | undefined
    try {
      row = this.lookup.get()
    } catch (error) {
      return guardStorage(() => Promise.reject(error), this.onError)
    }
    if (row === undefined) {
      return guardStorage(() => Promise.reject(new Error('site_version has no row')), this.onError)
    }
    // Synchronous on purpose: this sits on every cached read's path.
    return Promise.resolve(Number(row.version))
  }

  close(): void {
    this.connection.close()
  }
}
