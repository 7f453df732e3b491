import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Engine } from '@/application/database-target'
import { toIsoInstant } from '@/adapters/sql/newswire.schema'
import type { CarriedTable } from '@/adapters/sql/site-archive/archive-tables'

/** A value as an archive writes it: instants as ISO 8601 text with milliseconds, bigints as numbers. */
export type ArchiveValue = string | number | null

/** One row, its columns in the order the table's entry lists them. */
export type ArchiveRow = Readonly<Record<string, ArchiveValue>>

/** One line of an archive's body: a row of a carried table. */
export interface ArchiveRecord {
  readonly table: string
  readonly row: ArchiveRow
}

/**
 * Runs `work` in one read-only snapshot of the database, so that what it reads page by page is
 * the site at one instant even if servers write meanwhile (a write after it began is not in it).
 * SQLite's deferred transaction takes its snapshot at the first read; PostgreSQL's repeatable
 * read at the first statement.
 */
export function inSnapshot<DB, T>(db: Kysely<DB>, work: (snapshot: Kysely<DB>) => Promise<T>) {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(work)
}

/** Rows read per query: memory holds one page, whatever the size of the site. */
const PAGE_SIZE = 1_000

/**
 * Every row of `tables`, table after table, each in the order of its key, a keyset page at a
 * time, in the engine-neutral form an archive holds: the same data gives the same records
 * whether it is read from SQLite or PostgreSQL.
 */
export async function* siteRows<DB>(
  db: Kysely<DB>,
  engine: Engine,
  tables: readonly CarriedTable[],
): AsyncGenerator<ArchiveRecord> {
  for (const table of tables) {
    let after: readonly unknown[] | undefined
    for (;;) {
      const { rows } = await selectPage(engine, table, after).execute(db)
      for (const row of rows) yield { table: table.name, row: archiveRow(table, row) }
      const last = rows.at(-1)
      if (last === undefined || rows.length < PAGE_SIZE) break
      after = table.key.map((column) => last[column])
    }
  }
}

/**
 * One page after `after`. Text keys compare byte by byte on both engines (PostgreSQL's C
 * collation, as news.id already has), so that both give rows in the same order.
 */
function selectPage(
  engine: Engine,
  table: CarriedTable,
  after: readonly unknown[] | undefined,
): RawBuilder<Record<string, unknown>> {
  const kinds = new Map(table.columns.map((column) => [column.name, column.kind]))
  const key = sql.join(
    table.key.map((column) =>
      engine === 'postgres' && kinds.get(column) === 'text'
        ? sql`${sql.ref(column)} collate "C"`
        : sql.ref(column),
    ),
  )
  const columns = sql.join(table.columns.map((column) => sql.ref(column.name)))
  const where =
    after === undefined ? sql`` : sql`where (${key}) > (${sql.join(after.map((v) => sql`${v}`))})`
  return sql<Record<string, unknown>>`
    select ${columns} from ${sql.table(table.name)} ${where} order by ${key} limit ${PAGE_SIZE}
  `
}

/** The form toISOString writes, in which SQLite keeps every instant. */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

function archiveRow(table: CarriedTable, raw: Record<string, unknown>): ArchiveRow {
  const row: Record<string, ArchiveValue> = {}
  for (const { name, kind } of table.columns) {
    const value = raw[name]
    row[name] =
      value === null || value === undefined
        ? null
        : kind === 'integer'
          ? Number(value)
          : kind === 'instant'
            ? instantOf(value as Date | string)
            : String(value)
  }
  return row
}

function instantOf(value: Date | string): string {
  return typeof value === 'string' && ISO_INSTANT.test(value) ? value : toIsoInstant(value)
}
