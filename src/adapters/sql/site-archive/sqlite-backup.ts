import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import SQLite from 'better-sqlite3'

/**
 * An online backup of the SQLite file at `path` into `destination` (SQLite's backup API, through
 * better-sqlite3): consistent, and safe while servers write, which it lets through between its
 * steps. Creates the destination's folder if needed. Resolves with the pages copied.
 */
export async function backupSqlite(path: string, destination: string): Promise<number> {
  const target = resolve(destination)
  mkdirSync(dirname(target), { recursive: true })
  const source = new SQLite(resolve(path), { readonly: true, fileMustExist: true })
  try {
    const { totalPages } = await source.backup(target)
    return totalPages
  } finally {
    source.close()
  }
}
