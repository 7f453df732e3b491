import SQLite from 'better-sqlite3'
import { CompiledQuery, Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely'
import { Pool } from 'pg'
import { parseDatabaseUrl } from '@/application/database-target'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import type { SqlDatabase } from '@/adapters/sql/database'
import { migrateTo, migrateToLatest } from '@/adapters/sql/newswire.migrations'
import { seeingOneSchema } from '@/adapters/sql/one-schema-introspection'
import type { NewsStoreKind } from '../../support/news-stores'
import {
  selectChangedSince,
  selectChangePage,
  selectNewsPage,
  selectRevisionPage,
  selectSearchTier,
  selectTrashPage,
} from '@/adapters/sql/news/queries'
import type { KeysetPosition } from '@/adapters/shared/keyset-cursor'
import type { SearchTier } from '@/domain/rules/search-query.rules'

/** The SQL tests' own tools: the plans the engines pick, and a database built by hand. */
export { POSTGRES_SKIPPED } from '../../support/test-databases'

/** The plan the engine picks for the store's own list query, as text. */
export function explainNewsPage(database: SqlDatabase, after?: KeysetPosition): Promise<string> {
  return explain(database, selectNewsPage(database.db, 25, after).compile())
}

/** The plan the engine picks for the store's trash query, as text. */
export function explainTrashPage(database: SqlDatabase, after?: KeysetPosition): Promise<string> {
  return explain(database, selectTrashPage(database.db, 25, after).compile())
}

/** The plan the engine picks for the store's history query of one post, as text. */
export function explainRevisionPage(
  database: SqlDatabase,
  newsId: string,
  before?: number,
): Promise<string> {
  return explain(database, selectRevisionPage(database.db, newsId, 51, before).compile())
}

/** The plan the engine picks for the undo's query of recent revisions, as text. */
export function explainChangedSince(database: SqlDatabase, instant: string): Promise<string> {
  return explain(database, selectChangedSince(database.db, instant).compile())
}

/** The plan the engine picks for a page of the recent changes, as text. */
export function explainChangePage(
  database: SqlDatabase,
  before?: number,
  editor?: string,
): Promise<string> {
  return explain(database, selectChangePage(database.db, 25, before, editor).compile())
}

/** The plan the engine picks for one tier of the store's search, as text. */
export function explainSearchTier(
  database: SqlDatabase,
  terms: readonly string[],
  tier: SearchTier,
  before?: number,
): Promise<string> {
  return explain(
    database,
    selectSearchTier(database.db, database.engine, terms, tier, before, 25).compile(),
  )
}

async function explain(
  database: SqlDatabase,
  compiled: { readonly sql: string; readonly parameters: readonly unknown[] },
): Promise<string> {
  const parameters = [...compiled.parameters]
  if (database.engine === 'sqlite') {
    const plan = await database.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, parameters),
    )
    return plan.rows.map((row) => row.detail).join('\n')
  }
  // A test table is tiny, and a sequential scan, or a bitmap scan and a sort, is then cheaper;
  // forbid both to see the plan a large table gets.
  return database.db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection)
    await sql`set enable_bitmapscan = off`.execute(connection)
    try {
      const plan = await connection.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${compiled.sql}`, parameters),
      )
      return plan.rows.map((row) => row['QUERY PLAN']).join('\n')
    } finally {
      await sql`reset enable_seqscan`.execute(connection)
      await sql`reset enable_bitmapscan`.execute(connection)
    }
  })
}

/** A connection to the test's database that runs no migration by itself. */
export function rawDatabase(url: string): Kysely<NewsWireSchema> {
  const target = parseDatabaseUrl(url)
  return target.engine === 'sqlite'
    ? new Kysely({ dialect: new SqliteDialect({ database: new SQLite(target.path) }) })
    : new Kysely({
        dialect: new PostgresDialect({
          pool: new Pool({ connectionString: target.connectionString, max: 1 }),
        }),
      })
}

/**
 * Empties the test's database, so that it can be built up migration by migration. On PostgreSQL
 * it lists the tables of the test's own schema only: Kysely's introspection reads every schema,
 * and another test's schema may be dropped meanwhile.
 */
export async function resetSchema(
  db: Kysely<NewsWireSchema>,
  engine: 'sqlite' | 'postgres',
): Promise<void> {
  const schema =
    engine === 'postgres'
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name
      : undefined
  const seen = schema === undefined ? db : seeingOneSchema(db, schema)
  for (const table of await seen.introspection.getTables()) {
    // Dropping SQLite's full-text index drops its shadow tables with it, later in the list.
    await sql`drop table if exists ${sql.table(table.name)}`.execute(db)
  }
  await sql`drop table if exists kysely_migration`.execute(db)
  await sql`drop table if exists kysely_migration_lock`.execute(db)
}

/**
 * A SQL store kind's test database built up to `migration` and no further, opened raw so that a
 * test can write rows as an older release did; `upgrade` then brings it to the latest schema.
 * `cleanups` closes it.
 */
export async function databaseBefore(
  kind: NewsStoreKind,
  cleanups: Array<() => Promise<void>>,
  migration: string,
): Promise<{
  readonly raw: Kysely<NewsWireSchema>
  readonly url: string
  readonly upgrade: () => Promise<void>
}> {
  const opened = await kind.open(cleanups)
  if (opened.sql === undefined) throw new Error('a SQL store has a database')
  const engine = kind.engine === 'postgres' ? 'postgres' : 'sqlite'
  const raw = rawDatabase(opened.sql.url)
  cleanups.push(() => raw.destroy())
  await resetSchema(raw, engine)
  await migrateTo(raw, engine, migration)
  return { raw, url: opened.sql.url, upgrade: () => migrateToLatest(raw, engine) }
}
