import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { newestMigration } from '@/adapters/sql/newswire.migrations'
import {
  ArchiveError,
  parseHeader,
  parseLine,
  type ArchiveEnd,
  type ArchiveHeader,
} from '@/adapters/sql/site-archive/archive-format'
import { carriedTables, type CarriedTable } from '@/adapters/sql/site-archive/archive-tables'
import type { TableDigest } from '@/adapters/sql/site-archive/site-digest'
import type { ArchiveRecord, ArchiveValue } from '@/adapters/sql/site-archive/site-rows'

export interface OpenedArchive {
  readonly header: ArchiveHeader
  /**
   * Its rows, a line at a time. Rejects with an ArchiveError on a line that is not a row of a
   * table the archive may hold, and when the file stops before its last line or that line's
   * counts differ from the rows read.
   */
  readonly records: AsyncGenerator<ArchiveRecord>
  /** The digests its last line gives, once `records` has read it; empty before. */
  readonly digests: readonly TableDigest[]
}

/** Reads the header at once, so that a wrong file is refused before anything is written. */
export async function openArchive(input: Readable): Promise<OpenedArchive> {
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]()
  const first = await lines.next()
  const header = parseHeader(first.done === true ? undefined : first.value, newestMigration())
  const tables = new Map(carriedTables(header.outbox).map((table) => [table.name, table]))
  const digests: TableDigest[] = []
  return { header, records: records(lines, tables, digests), digests }
}

async function* records(
  lines: AsyncIterator<string>,
  tables: ReadonlyMap<string, CarriedTable>,
  digests: TableDigest[],
): AsyncGenerator<ArchiveRecord> {
  const counts = new Map<string, number>()
  for (let number = 2; ; number++) {
    const next = await lines.next()
    if (next.done === true) {
      throw new ArchiveError('the archive stops before its last line: the file is cut short')
    }
    const parsed = parseLine(next.value, number) as Partial<ArchiveRecord & ArchiveEnd>
    if (parsed.end !== undefined) {
      checkCounts(parsed.end.counts, counts)
      for (const table of tables.keys()) {
        const sha256 = parsed.end.sha256?.[table]
        digests.push({ table, count: counts.get(table) ?? 0, sha256: String(sha256) })
      }
      return
    }
    const table = tables.get(String(parsed.table))
    if (table === undefined || !isRowOf(table, parsed.row)) {
      throw new ArchiveError(`line ${number} of the archive is not a row this archive may hold`)
    }
    counts.set(table.name, (counts.get(table.name) ?? 0) + 1)
    yield { table: table.name, row: parsed.row }
  }
}

function isRowOf(table: CarriedTable, row: unknown): row is Record<string, ArchiveValue> {
  if (typeof row !== 'object' || row === null) return false
  const values = row as Record<string, unknown>
  return table.columns.every(({ name, kind, nullable }) => {
    const value = values[name]
    if (value === null) return nullable === true
    return kind === 'integer' ? Number.isSafeInteger(value) : typeof value === 'string'
  })
}

function checkCounts(
  expected: Readonly<Record<string, number>> | undefined,
  read: ReadonlyMap<string, number>,
): void {
  const names = new Set([...Object.keys(expected ?? {}), ...read.keys()])
  for (const name of names) {
    if ((expected?.[name] ?? 0) !== (read.get(name) ?? 0)) {
      throw new ArchiveError(
        `the archive's last line counts ${expected?.[name] ?? 0} rows of ${name}, ` +
          `but ${read.get(name) ?? 0} were read: the file is damaged`,
      )
    }
  }
}
