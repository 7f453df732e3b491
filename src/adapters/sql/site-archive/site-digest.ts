import { createHash, type Hash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Engine } from '@/application/database-target'
import type { CarriedTable } from '@/adapters/sql/site-archive/archive-tables'
import { siteRows, type ArchiveRecord } from '@/adapters/sql/site-archive/site-rows'

/** A table's rows, counted and hashed. */
export interface TableDigest {
  readonly table: string
  readonly count: number
  /** sha256 (hex) of the table's lines as an archive holds them, each ending in a newline. */
  readonly sha256: string
}

/**
 * Counts and hashes records as they pass, table by table: the export's digests, and the ones
 * read back from a database, are made the same way.
 */
export class SiteHasher {
  private readonly tables = new Map<string, { hash: Hash; count: number }>()

  constructor(tables: readonly CarriedTable[]) {
    for (const table of tables)
      this.tables.set(table.name, { hash: createHash('sha256'), count: 0 })
  }

  /** The record's line in an archive (newline included), counted and hashed. */
  line(record: ArchiveRecord): string {
    const line = `${JSON.stringify(record)}\n`
    const table = this.tables.get(record.table)
    if (table === undefined) throw new Error(`${record.table} is not a carried table`)
    table.hash.update(line)
    table.count++
    return line
  }

  digests(): TableDigest[] {
    return [...this.tables].map(([table, { hash, count }]) => ({
      table,
      count,
      sha256: hash.digest('hex'),
    }))
  }
}

/**
 * The digest of each of `tables`: equal on two databases exactly when they hold the same rows,
 * whatever their engines, since rows are read in the engine-neutral form of an archive.
 */
export async function digestSite<DB>(
  db: Kysely<DB>,
  engine: Engine,
  tables: readonly CarriedTable[],
): Promise<TableDigest[]> {
  const hasher = new SiteHasher(tables)
  for await (const record of siteRows(db, engine, tables)) hasher.line(record)
  return hasher.digests()
}

/** The tables whose counts or digests differ between two sides, by name. */
export function differingTables(
  expected: readonly TableDigest[],
  actual: readonly TableDigest[],
): string[] {
  return expected
    .filter((one) => {
      const other = actual.find((digest) => digest.table === one.table)
      return other?.count !== one.count || other.sha256 !== one.sha256
    })
    .map((digest) => digest.table)
}
