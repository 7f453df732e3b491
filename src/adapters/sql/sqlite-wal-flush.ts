import { open, type FileHandle } from 'node:fs/promises'
import type SQLite from 'better-sqlite3'
import { CompiledQuery, type Kysely } from 'kysely'

/**
 * Runs `work` on a SQLite connection with `synchronous = NORMAL`, then gives the connection
 * back FULL, the setting it keeps otherwise (database.ts). In WAL mode a commit under NORMAL is
 * written to the log at once, so it survives the process being killed, but it does not wait for
 * the disk: power lost before the log's next flush can undo it. The caller decides what makes it
 * durable: a WalFlush before it answers, or nothing for a count that may be forgotten (the rate
 * limit). `connection` must be one connection held for the whole call, with no transaction open
 * on it. The two statements are compiled once: they run twice in every write.
 */
export async function withoutSyncAtCommit<DB, T>(
  connection: Kysely<DB>,
  work: (connection: Kysely<DB>) => Promise<T>,
): Promise<T> {
  await connection.executeQuery(WITHOUT_SYNC_AT_COMMIT)
  try {
    return await work(connection)
  } finally {
    await connection.executeQuery(SYNC_AT_COMMIT)
  }
}

/**
 * Runs `work` in a SQLite transaction begun IMMEDIATE, on one connection held for it, without
 * sync at commit (withoutSyncAtCommit) unless `syncAtCommit`. Kysely's own transaction begins
 * DEFERRED: two processes that both read first would then fail the second one's write with
 * SQLITE_BUSY; begun IMMEDIATE, writers queue for the write lock instead. Without sync at
 * commit, the caller decides what makes it durable (transactions.ts chooses).
 */
export function immediateTransaction<DB, T>(
  db: Kysely<DB>,
  work: (connection: Kysely<DB>) => Promise<T>,
  { syncAtCommit = false } = {},
): Promise<T> {
  return db.connection().execute((connection) => {
    const immediate = async (held: Kysely<DB>) => {
      await held.executeQuery(BEGIN_IMMEDIATE)
      try {
        const result = await work(held)
        await held.executeQuery(COMMIT)
        return result
      } catch (error) {
        await held.executeQuery(ROLLBACK).catch(() => undefined)
        throw error
      }
    }
    return syncAtCommit ? immediate(connection) : withoutSyncAtCommit(connection, immediate)
  })
}

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate')
const COMMIT = CompiledQuery.raw('commit')
const ROLLBACK = CompiledQuery.raw('rollback')
const WITHOUT_SYNC_AT_COMMIT = CompiledQuery.raw('pragma synchronous = normal')
const SYNC_AT_COMMIT = CompiledQuery.raw('pragma synchronous = full')

/**
 * Flushes a SQLite database's write-ahead log to the disk, off the event loop. With
 * `synchronous = FULL` SQLite does exactly this at each commit, but better-sqlite3 runs on the
 * event loop, so every request waited for each write's disk flush (a quarter of a millisecond on
 * a quiet disk, several on a busy one). Instead a write commits under NORMAL (withoutSyncAtCommit),
 * gives the connection back, and is answered once `flush()` resolves: by then its commit is on
 * the disk, as FULL would have had it, while other requests ran meanwhile.
 *
 * One flush covers every commit written before it began (the log only grows between
 * checkpoints, and a flush covers the whole file), so writers share them: at most one flush
 * runs, and the writers that commit while it runs share the one that follows it.
 *
 * The log stays open between flushes, so that a flush is one call to the thread pool, not three
 * (open, flush, close): under load each call waits a turn of the busy event loop, and
 * `npm run bench:load` measured a write's answer at 37 ms (p50) with the file opened each time.
 * SQLite keeps the log file while any connection is open (it resets it in place after a
 * checkpoint and removes it only when the last connection closes), so the handle stays good
 * until `close()`, which the database calls after closing its connection.
 *
 * Other readers may see a commit for the moment before its flush ends; power lost in that moment
 * undoes it, but it was not acknowledged yet, and a later write that was acknowledged has had its
 * own flush, which covered everything written before it.
 */
export class WalFlush {
  private running: Promise<void> | undefined
  private next: Promise<void> | undefined
  /** The open log; undefined until a flush finds it (SQLite creates it at the first write). */
  private handle: Promise<FileHandle | undefined> | undefined

  /** `log`: the path of the database's `-wal` file; `sync` flushes the open file (tests watch it). */
  constructor(
    private readonly log: string,
    private readonly sync: (file: FileHandle) => Promise<void> = (file) => file.datasync(),
  ) {}

  /** Resolves once every commit made before this call is on the disk. */
  flush(): Promise<void> {
    if (this.running === undefined) return this.start()
    // The running flush may have begun before the caller's commit: wait for the next one.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined
        return this.start()
      })
    return this.next
  }

  /** Closes the log once the flushes asked for so far have ended; later flushes open it again. */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.next])
    const handle = this.handle
    this.handle = undefined
    await (await handle?.catch(() => undefined))?.close()
  }

  private start(): Promise<void> {
    const run = this.flushOnce().finally(() => {
      if (this.running === run) this.running = undefined
    })
    this.running = run
    return run
  }

  private async flushOnce(): Promise<void> {
    this.handle ??= openLog(this.log)
    let file: FileHandle | undefined
    try {
      file = await this.handle
    } catch (error) {
      this.handle = undefined
      throw error
    }
    // No log yet: nothing was written that is not in the database file already. Look again
    // at the next flush.
    if (file === undefined) this.handle = undefined
    else await this.sync(file)
  }
}

/** The log opened for writing (some systems refuse to flush a file opened read-only), or
 * undefined when it does not exist: SQLite removes it only when the last connection closes,
 * after checkpointing it into the database file and flushing that. */
async function openLog(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, 'r+')
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined
    throw error
  }
}

/** The `-wal` file of the connection's main database, or undefined for an in-memory one. */
export function walFileOf(connection: SQLite.Database): string | undefined {
  const rows = connection.pragma('database_list') as { name: string; file: string }[]
  const file = rows.find((row) => row.name === 'main')?.file
  return file === undefined || file === '' ? undefined : `${file}-wal`
}
