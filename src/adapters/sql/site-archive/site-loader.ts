import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely'
import type { Engine } from '@/application/database-target'
import { searchDocumentOf } from '@/domain/rules/search-query.rules'
import { indexedWords, SQLITE_SEARCH_TABLE, wordsText } from '@/adapters/sql/news-search.sql'
import { ArchiveError, TargetNotEmptyError } from '@/adapters/sql/site-archive/archive-format'
import {
  carriedTable,
  CARRIED_TABLES,
  NEWS,
  OUTBOX_MESSAGE,
  SITE_SECRET,
  SITE_VERSION,
  type CarriedTable,
} from '@/adapters/sql/site-archive/archive-tables'
import type { ArchiveRecord, ArchiveRow } from '@/adapters/sql/site-archive/site-rows'

/** Rows per insert statement: well under either engine's limit on parameters. */
const BATCH_ROWS = 500
/** Rows per transaction: few commits (each one a disk flush), and a bounded one each. */
const TRANSACTION_ROWS = 20_000

/**
 * Loads the rows of a site archive, or of another database (site-copy.ts), into an empty,
 * migrated database, a batch per statement and many per transaction, building the search index
 * as the posts arrive (SQLite's FTS5 rows, PostgreSQL's tsvectors). Refuses a database that
 * holds anything with a TargetNotEmptyError, before writing. Resolves with the rows loaded per
 * table.
 */
export async function loadSite<DB>(
  db: Kysely<DB>,
  engine: Engine,
  records: AsyncIterable<ArchiveRecord>,
): Promise<Record<string, number>> {
  await refuseNonEmpty(db)
  const counts: Record<string, number> = {}
  const iterator = records[Symbol.asyncIterator]()
  // On SQLite, commits reach the disk once, at the checkpoint below, not at every commit.
  if (engine === 'sqlite') await sql`pragma synchronous = normal`.execute(db)
  try {
    for (let done = false; !done;) {
      await db.transaction().execute(async (trx) => {
        await noStatementTimeout(trx, engine)
        let batch: ArchiveRow[] = []
        let table: CarriedTable | undefined
        for (let rows = 0; rows < TRANSACTION_ROWS; rows++) {
          const next = await iterator.next()
          if (next.done === true) {
            done = true
            break
          }
          const { table: name, row } = next.value
          if (table?.name !== name || batch.length >= BATCH_ROWS) {
            if (table !== undefined) await insertBatch(trx, engine, table, batch)
            table = carriedTable(name)
            batch = []
          }
          batch.push(row)
          counts[name] = (counts[name] ?? 0) + 1
        }
        if (table !== undefined) await insertBatch(trx, engine, table, batch)
      })
    }
  } finally {
    if (engine === 'sqlite') {
      await sql`pragma wal_checkpoint(truncate)`.execute(db)
      await sql`pragma synchronous = full`.execute(db)
    }
  }
  if (engine === 'postgres') await afterPostgresLoad(db)
  return counts
}

/** Empty: no row in any carried table but the site's counters, and those still at zero. */
async function refuseNonEmpty<DB>(db: Kysely<DB>): Promise<void> {
  const held: string[] = []
  for (const table of CARRIED_TABLES) {
    // Every database has these: the counters' one row, and the secrets a server made at start.
    if (table === SITE_VERSION || table === SITE_SECRET) continue
    const { rows } = await sql<{
      n: number | string
    }>`select count(*) as n from ${sql.table(table.name)}`.execute(db)
    const count = Number(rows[0]?.n ?? 0)
    if (count > 0) held.push(`${count} row(s) of ${table.name}`)
  }
  const { rows } = await sql<{ version: number | string }>`
    select version from site_version where id = 1
  `.execute(db)
  if (Number(rows[0]?.version ?? 0) !== 0) held.push('a site version above 0')
  if (held.length > 0) {
    throw new TargetNotEmptyError(
      `the target database is not empty (${held.join(', ')}): ` +
        'load only into a new database, or one whose site you mean to drop first',
    )
  }
}

async function insertBatch<DB>(
  trx: Transaction<DB>,
  engine: Engine,
  table: CarriedTable,
  rows: readonly ArchiveRow[],
): Promise<void> {
  if (table === SITE_VERSION) {
    for (const row of rows) {
      await sql`
        update site_version set version = ${row.version},
          changes_purged_through = ${row.changes_purged_through}
        where id = ${row.id}
      `.execute(trx)
    }
    return
  }
  if (table === SITE_SECRET) {
    // The archive's secrets replace those the target's servers may have made.
    for (const row of rows) {
      await sql`delete from site_secret where name = ${row.name}`.execute(trx)
    }
  }
  const extra = table === NEWS && engine === 'postgres' ? postgresSearchColumns : undefined
  const names = table.columns.map((column) => column.name)
  const columns = sql.join([...names, ...(extra?.names ?? [])].map((name) => sql.ref(name)))
  const values = rows.map(
    (row) =>
      sql`(${sql.join([...names.map((name) => sql`${row[name]}`), ...(extra?.values(row) ?? [])])})`,
  )
  // The outbox's ids are an identity PostgreSQL generates always, unless told otherwise.
  const overriding =
    table === OUTBOX_MESSAGE && engine === 'postgres' ? sql`overriding system value` : sql``
  await sql`
    insert into ${sql.table(table.name)} (${columns}) ${overriding} values ${sql.join(values)}
  `.execute(trx)
  if (table === NEWS && engine === 'sqlite') await indexSqlite(trx, rows)
}

/** The words PostgreSQL's search reads, as the store writes them (news-search.sql.ts). */
const postgresSearchColumns = {
  names: ['search_vector', 'title_vector'],
  values(row: ArchiveRow): RawBuilder<unknown>[] {
    if (row.search_seq === null) {
      throw new ArchiveError(
        `post ${String(row.id)} has no search_seq (written by a release older than search): ` +
          'edit it once on the old site, then export again',
      )
    }
    const { title, all } = indexedWords(searchDocumentOf(postWords(row)))
    return [
      sql`array_to_tsvector(${[...all]}::text[])`,
      sql`array_to_tsvector(${[...title]}::text[])`,
    ]
  },
}

/** SQLite's FTS5 rows of the live posts among `rows`, keyed by search_seq as the store keys them. */
async function indexSqlite<DB>(trx: Transaction<DB>, rows: readonly ArchiveRow[]): Promise<void> {
  const live = rows.filter((row) => row.deleted_at === null && row.search_seq !== null)
  if (live.length === 0) return
  const values = live.map((row) => {
    const document = searchDocumentOf(postWords(row))
    return sql`(${row.search_seq}, ${wordsText(document.title)}, ${wordsText(document.rest)})`
  })
  await sql`
    insert into ${sql.table(SQLITE_SEARCH_TABLE)} (rowid, title, rest) values ${sql.join(values)}
  `.execute(trx)
}

function postWords(row: ArchiveRow): { title: string; body: string; author: string } {
  return { title: String(row.title), body: String(row.body), author: String(row.author) }
}

/** Identities carry on after the loaded rows; the planner learns the new tables. */
async function afterPostgresLoad<DB>(db: Kysely<DB>): Promise<void> {
  for (const [table, column] of [
    ['news', 'search_seq'],
    ['outbox_message', 'id'],
  ] as const) {
    await sql`
      select setval(pg_get_serial_sequence(${table}, ${column}),
                    (select coalesce(max(${sql.ref(column)}), 0) + 1 from ${sql.table(table)}), false)
    `.execute(db)
  }
  await db.transaction().execute(async (trx) => {
    await noStatementTimeout(trx, 'postgres')
    for (const table of CARRIED_TABLES) await sql`analyze ${sql.table(table.name)}`.execute(trx)
  })
}

/**
 * A load's statements may take longer than a request's 10 s limit (postgres-pool.ts): a batch
 * whose insert merges the search index's pending words, or the analysis of a million posts.
 */
async function noStatementTimeout<DB>(trx: Transaction<DB>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await sql`set local statement_timeout = 0`.execute(trx)
}
