import { accessSync, constants, mkdirSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect, type KyselyConfig } from 'kysely'
import { errorCode, oneLine, type Failure } from '@/adapters/sql/database-open-error'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { withPreparedStatements } from '@/adapters/sql/sqlite-statements'
import { WalFlush, walFileOf } from '@/adapters/sql/sqlite-wal-flush'

/* Opening the embedded SQLite database: its folder, its file, and its settings. */

/** Kysely's statement log, when the opener times statements (statement-timing.ts). */
export type StatementLog = KyselyConfig['log']

export const SQLITE_FIX = 'Set DATABASE_URL=sqlite:PATH to a file in a folder this user can write.'

/**
 * Kernel file systems hold no database. Under /proc, Node's `mkdirSync(…, { recursive: true })`
 * even spins forever: the kernel answers ENOENT (not EPERM) for a new entry, Node reads that as
 * "the parent is missing", finds the parent exists, and tries the child again (nodejs/node has
 * the same loop for a dangling symlink). `makeFolder` below cannot loop; this names the mistake.
 */
const KERNEL_FILE_SYSTEMS = ['/proc', '/sys']

export function openSqlite(
  path: string,
  failed: Failure,
  statementLog: StatementLog,
): { db: Kysely<NewsWireSchema>; log: WalFlush | undefined } {
  const memory = path === ':memory:'
  const file = resolve(path)
  if (!memory) {
    const kernel = KERNEL_FILE_SYSTEMS.find((root) => file === root || file.startsWith(`${root}/`))
    if (kernel !== undefined) {
      throw failed(`${file} is under ${kernel}, a kernel file system`, SQLITE_FIX, undefined)
    }
    makeFolder(dirname(file), failed)
    const existing = statSync(file, { throwIfNoEntry: false })
    if (existing !== undefined && !existing.isFile()) {
      // A FIFO or a device could block the open; a folder is a plain mistake.
      throw failed(
        `${file} is ${existing.isDirectory() ? 'a folder' : 'not a file'}`,
        SQLITE_FIX,
        undefined,
      )
    }
  }
  let sqlite: SQLite.Database | undefined
  try {
    sqlite = new SQLite(memory ? ':memory:' : file)
    sqlite.pragma('journal_mode = WAL')
  } catch (error) {
    sqlite?.close()
    throw failed(`${file}: ${oneLine(error)}`, SQLITE_FIX, error)
  }
  // FULL: a commit is on disk before it returns; NORMAL could lose the last ones on power loss.
  // The store's writes commit under NORMAL and then wait for a shared flush of the log off the
  // event loop before they answer (sqlite-wal-flush.ts): the same promise, without blocking reads.
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('busy_timeout = 5000')
  const log = walFileOf(sqlite)
  return {
    db: new Kysely<NewsWireSchema>({
      dialect: new SqliteDialect({ database: withPreparedStatements(sqlite) }),
      log: statementLog,
    }),
    log: log === undefined ? undefined : new WalFlush(log),
  }
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
}

/**
 * `mkdir -p` one level at a time, from the nearest folder that exists, so that every failure
 * names the level at fault and none can loop (see KERNEL_FILE_SYSTEMS). Then checks that the
 * folder is writable, since SQLite writes its -wal and -shm files beside the database.
 */
function makeFolder(folder: string, failed: Failure): void {
  const missing: string[] = []
  let existing = folder
  let stat = statSync(existing, { throwIfNoEntry: false })
  while (stat === undefined && dirname(existing) !== existing) {
    missing.unshift(existing)
    existing = dirname(existing)
    stat = statSync(existing, { throwIfNoEntry: false })
  }
  if (stat !== undefined && !stat.isDirectory()) {
    throw failed(`${existing} is a file, not a folder`, SQLITE_FIX, undefined)
  }
  for (const level of missing) {
    try {
      mkdirSync(level)
    } catch (error) {
      // Another server starting on the same database made it meanwhile: it is there, as asked.
      if (errorCode(error) === 'EEXIST' && isFolder(level)) continue
      throw failed(`cannot create the folder ${level} (${errorCode(error)})`, SQLITE_FIX, error)
    }
  }
  try {
    accessSync(folder, constants.W_OK)
  } catch (error) {
    throw failed(`cannot write in the folder ${folder} (${errorCode(error)})`, SQLITE_FIX, error)
  }
}
