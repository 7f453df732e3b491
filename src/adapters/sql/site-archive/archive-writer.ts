import { once } from 'node:events'
import type { Writable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { Engine } from '@/application/database-target'
import { newestMigration } from '@/adapters/sql/newswire.migrations'
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type ArchiveEnd,
  type ArchiveHeader,
} from '@/adapters/sql/site-archive/archive-format'
import { carriedTables } from '@/adapters/sql/site-archive/archive-tables'
import { SiteHasher, type TableDigest } from '@/adapters/sql/site-archive/site-digest'
import { inSnapshot, siteRows } from '@/adapters/sql/site-archive/site-rows'

/** Bytes gathered before a write: few system calls, and a bounded buffer. */
const CHUNK_BYTES = 256 * 1024

export interface ExportOptions {
  readonly withOutbox: boolean
  readonly now?: Date
}

/**
 * Writes the whole site, as one snapshot, to `out` as a site archive (docs/export-format.md), waiting whenever
 * `out` says its buffer is full, so that memory stays bounded however slow the reader. Resolves
 * with each table's count and digest, which the last line holds too; does not end `out`.
 */
export async function writeArchive<DB>(
  db: Kysely<DB>,
  engine: Engine,
  out: Writable,
  { withOutbox, now = new Date() }: ExportOptions,
): Promise<TableDigest[]> {
  const header: ArchiveHeader = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    engine,
    schema: newestMigration(),
    exportedAt: now.toISOString(),
    outbox: withOutbox,
  }
  const tables = carriedTables(withOutbox)
  const hasher = new SiteHasher(tables)
  let chunk = `${JSON.stringify(header)}\n`
  await inSnapshot(db, async (snapshot) => {
    for await (const record of siteRows(snapshot, engine, tables)) {
      chunk += hasher.line(record)
      if (chunk.length >= CHUNK_BYTES) {
        await write(out, chunk)
        chunk = ''
      }
    }
  })
  const digests = hasher.digests()
  const end: ArchiveEnd = {
    end: {
      counts: Object.fromEntries(digests.map((digest) => [digest.table, digest.count])),
      sha256: Object.fromEntries(digests.map((digest) => [digest.table, digest.sha256])),
    },
  }
  await write(out, `${chunk}${JSON.stringify(end)}\n`)
  return digests
}

async function write(out: Writable, chunk: string): Promise<void> {
  // Room again at 'drain'; `once` rejects on an 'error' (a closed pipe) meanwhile.
  if (!out.write(chunk)) await once(out, 'drain')
}
