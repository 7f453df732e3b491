import { createReadStream, createWriteStream, existsSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { finished } from 'node:stream/promises'
import {
  describeDatabase,
  readDatabaseUrl,
  type DatabaseTarget,
} from '@/application/database-target'
import type { ServerConfig } from '@/server/services/server-config'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { ArchiveError, TargetNotEmptyError } from '@/adapters/sql/site-archive/archive-format'
import { openArchive } from '@/adapters/sql/site-archive/archive-reader'
import { carriedTables } from '@/adapters/sql/site-archive/archive-tables'
import { writeArchive } from '@/adapters/sql/site-archive/archive-writer'
import { copySite } from '@/adapters/sql/site-archive/site-copy'
import {
  differingTables,
  digestSite,
  type TableDigest,
} from '@/adapters/sql/site-archive/site-digest'
import { loadSite } from '@/adapters/sql/site-archive/site-loader'
import { backupSqlite } from '@/adapters/sql/site-archive/sqlite-backup'
import { UsageError, type CommandIo } from './command-line'

/**
 * `npm run news -- export | import | copy | backup`: moving a site between databases, and
 * backing up SQLite (docs/operations.md, "Moving to PostgreSQL, step by step").
 */

/** `export [FILE] [--with-outbox]`: the site as an archive, to FILE or standard output. */
export async function exportSite(
  config: ServerConfig,
  { stdout, stderr }: CommandIo,
  file: string | undefined,
  withOutbox: boolean,
): Promise<number> {
  const database = await openDatabase(config.database)
  try {
    const toFile = file !== undefined && file !== '-'
    if (toFile) mkdirSync(dirname(resolve(file)), { recursive: true })
    const out = toFile ? createWriteStream(resolve(file)) : stdout
    const digests = await writeArchive(database.db, database.engine, out, { withOutbox })
    if (toFile) {
      out.end()
      await finished(out)
    }
    // The archive may be on standard output: the report goes beside it, not into it.
    const report = toFile ? stdout : stderr
    report.write(
      `Exported ${database.description} to ${toFile ? file : 'standard output'}` +
        `${withOutbox ? ', contact messages included' : ''}:\n${digestLines(digests)}`,
    )
    return 0
  } finally {
    await database.close()
  }
}

/** `import FILE`: the archive into DATABASE_URL's database, which must be empty. */
export async function importSite(
  config: ServerConfig,
  io: CommandIo,
  file: string,
): Promise<number> {
  if (!existsSync(file)) throw new UsageError(`there is no file ${file}`)
  // The header is checked before the database is opened, let alone created.
  const archive = await openArchive(createReadStream(file))
  const database = await openDatabase(config.database)
  try {
    await partlyFilling(database, () => loadSite(database.db, database.engine, archive.records))
    const loaded = await digestSite(
      database.db,
      database.engine,
      carriedTables(archive.header.outbox),
    )
    io.stdout.write(`Imported ${file} into ${database.description}:\n${digestLines(loaded)}`)
    return verdict(io, differingTables(archive.digests, loaded), 'the archive')
  } finally {
    await database.close()
  }
}

/** `copy --to URL`: DATABASE_URL's database into another, empty one, then both digested. */
export async function copyToDatabase(
  config: ServerConfig,
  io: CommandIo,
  to: string,
): Promise<number> {
  const target = copyTarget(to)
  if (describeDatabase(target) === describeDatabase(config.database)) {
    throw new UsageError('--to names the database DATABASE_URL names: copy it somewhere else')
  }
  const source = await openDatabase(config.database)
  try {
    const copy = await openDatabase(target)
    try {
      const report = await partlyFilling(copy, () => copySite(source, copy))
      io.stdout.write(
        `Copied ${source.description} into ${copy.description}.\n` +
          `source:\n${digestLines(report.source)}copy:\n${digestLines(report.target)}`,
      )
      return verdict(io, report.differing, 'the source')
    } finally {
      await copy.close()
    }
  } finally {
    await source.close()
  }
}

/** `backup FILE`: an online backup of a SQLite database; PostgreSQL has its own tools. */
export async function backup(
  config: ServerConfig,
  { stdout, stderr }: CommandIo,
  file: string,
): Promise<number> {
  const { database } = config
  if (database.engine === 'postgres') {
    // Exit 1: a script that expected a backup file must not go on as if it had one.
    stderr.write(
      'news: backup copies a SQLite file; this database is PostgreSQL: use pg_dump, for example\n' +
        '  pg_dump --format=custom --file=newswire.dump "$DATABASE_URL"\n' +
        '(docs/operations.md, Backups)\n',
    )
    return 1
  }
  if (database.path === ':memory:') throw new UsageError('an in-memory database has no backup')
  if (resolve(file) === resolve(database.path)) {
    throw new UsageError('the backup would overwrite the database itself: name another file')
  }
  const pages = await backupSqlite(database.path, file)
  stdout.write(`Backed up ${describeDatabase(database)} to ${file} (${pages} pages).\n`)
  return 0
}

/**
 * Runs a load into `target`; a failure once rows were written says that the target holds part of
 * the site, which the next load would refuse.
 */
async function partlyFilling<T>(target: SqlDatabase, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (error instanceof TargetNotEmptyError) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new ArchiveError(
      `${message}; ${target.description} now holds part of the site: empty it before loading again`,
    )
  }
}

/** A postgres:// or sqlite: URL, or else a path to a SQLite file. */
function copyTarget(to: string): DatabaseTarget {
  if (/^[a-z][a-z0-9+.-]*:\/\/|^sqlite:/i.test(to)) {
    const target = readDatabaseUrl(to)
    if (target === undefined) {
      throw new UsageError('--to must be a postgres:// URL, a sqlite: URL or a file path')
    }
    return target
  }
  return { engine: 'sqlite', path: to }
}

function digestLines(digests: readonly TableDigest[]): string {
  return digests
    .map(
      (digest) =>
        `  ${digest.table.padEnd(16)} ${String(digest.count).padStart(10)} rows  sha256 ${digest.sha256}\n`,
    )
    .join('')
}

function verdict(
  { stdout, stderr }: CommandIo,
  differing: readonly string[],
  original: string,
): number {
  if (differing.length === 0) {
    stdout.write(`Verified: the same rows and digests as ${original}.\n`)
    return 0
  }
  stderr.write(
    `news: the copy differs from ${original} in ${differing.join(', ')}: do not switch to it\n`,
  )
  return 1
}
