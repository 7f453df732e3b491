import { open } from 'node:fs/promises'
import { sql, type Kysely } from 'kysely'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'

type Db = Kysely<NewsWireSchema>

/**
 * Runs `work` on a SQLite connection with `synchronous = NORMAL`, then gives the connection
 * back the setting it had (FULL, see database.ts). In WAL mode a commit under NORMAL is written
 * to the log at once, so it survives the process being killed, but it does not wait for the disk:
 * power lost before the log's next flush can undo it. The caller decides what makes it durable:
 * a WalFlush before it answers, or nothing for a count that may be forgotten (the rate limit).
 * `connection` must be one connection held for the whole call, with no transaction open on it.
 */
export async function withoutSyncAtCommit<T>(
  connection: Db,
  work: (connection: Db) => Promise<T>,
): Promise<T> {
  const [before] = (await sql<{ synchronous: number }>`pragma synchronous`.execute(connection)).rows
  await sql`pragma synchronous = normal`.execute(connection)
  try {
    return await work(connection)
  } finally {
    // A number from SQLite itself (0 to 3), never from a caller.
    const level = Number(before?.synchronous ?? 2)
    await sql`pragma synchronous = ${sql.raw(String(level))}`.execute(connection)
  }
}

/**
 * Flushes a SQLite database's write-ahead log to the disk, off the event loop. With
 * `synchronous = FULL` SQLite does exactly this at each commit, but better-sqlite3 runs on the
 * event loop, so every request waited for each write's disk flush (a quarter of a millisecond on
 * a quiet disk, several on a busy one). Instead a write commits under NORMAL (withoutSyncAtCommit),
 * gives the connection back, and is answered once `flush()` resolves: by then its commit is on
 * the disk, as FULL would have had it, while other requests ran meanwhile.
 *
 * One flush covers every commit written before it began (the log only grows between
 * checkpoints, and fsync flushes the whole file), so writers share them: at most one flush runs,
 * and the writers that commit while it runs share the one that follows it.
 *
 * Other readers may see a commit for the moment before its flush ends; power lost in that moment
 * undoes it, but it was not acknowledged yet, and a later write that was acknowledged has had its
 * own flush, which covered everything written before it.
 */
export class WalFlush {
  private running: Promise<void> | undefined
  private next: Promise<void> | undefined

  /** `log`: the path of the database's `-wal` file; `sync` flushes a file (tests watch it). */
  constructor(
    private readonly log: string,
    private readonly sync: (path: string) => Promise<void> = syncFile,
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

  private start(): Promise<void> {
    const run = this.sync(this.log).finally(() => {
      if (this.running === run) this.running = undefined
    })
    this.running = run
    return run
  }
}

/** The `-wal` file of the connection's main database, or undefined for an in-memory one. */
export async function walFileOf(connection: Db): Promise<string | undefined> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(
    connection,
  )
  const file = rows.find((row) => row.name === 'main')?.file
  return file === undefined || file === '' ? undefined : `${file}-wal`
}

/** fsync of the file at `path`, in the thread pool; a missing file has nothing to flush. */
export async function syncFile(path: string): Promise<void> {
  let handle
  try {
    // Opened for writing too: some systems refuse to flush a file opened read-only.
    handle = await open(path, 'r+')
  } catch (error) {
    // SQLite removes the log only when the last connection closes, after checkpointing it into
    // the database file and flushing that: every commit is then on the disk already.
    if ((error as { code?: unknown }).code === 'ENOENT') return
    throw error
  }
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
