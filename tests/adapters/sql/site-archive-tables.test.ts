import { sql, type Kysely } from 'kysely'
import type { Engine } from '@/application/database-target'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SQLITE_SEARCH_TABLE } from '@/adapters/sql/news-search.sql'
import { ARCHIVE_TABLES, CARRIED_TABLES } from '@/adapters/sql/site-archive/archive-tables'
import { describeOnDatabases } from '../../support/test-databases'

/**
 * The tables the catalogue lists: SQLite's own tables and the FTS5 index's shadow tables
 * (news_search_data, …) are parts of other things, not tables of ours.
 */
async function schemaTables<DB>(db: Kysely<DB>, engine: Engine): Promise<string[]> {
  const { rows } =
    engine === 'sqlite'
      ? await sql<{ name: string }>`
          select name from sqlite_master
          where type = 'table' and name not like 'sqlite\\_%' escape '\\'
            and name not like ${`${SQLITE_SEARCH_TABLE}\\_%`} escape '\\'
        `.execute(db)
      : await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'
        `.execute(db)
  return rows.map((row) => row.name).sort()
}

async function schemaColumns<DB>(db: Kysely<DB>, engine: Engine, table: string) {
  const { rows } =
    engine === 'sqlite'
      ? await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)
      : await sql<{ name: string }>`
          select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}
        `.execute(db)
  return rows.map((row) => row.name).sort()
}

describeOnDatabases('the site archive’s list of tables on $name', (kind) => {
  let database: SqlDatabase
  let dispose: () => Promise<void>

  beforeAll(async () => {
    const store = await kind.create()
    dispose = store.dispose
    database = await openDatabase(store.url)
  })
  afterAll(async () => {
    await database.close()
    await dispose()
  })

  it('names every table of the migrated schema, so that a new table cannot be left out unseen', async () => {
    const listed = ARCHIVE_TABLES.map((table) => table.name)
    const missing = (await schemaTables(database.db, database.engine)).filter(
      (table) => !listed.includes(table),
    )
    expect(missing).toEqual([])
  })

  it('carries every column of each carried table but the ones a load computes again', async () => {
    for (const table of CARRIED_TABLES) {
      const columns = await schemaColumns(database.db, database.engine, table.name)
      const carried = table.columns.map((column) => column.name)
      const rebuilt = database.engine === 'postgres' ? (table.rebuilt ?? []) : []
      expect([...carried, ...rebuilt].sort(), table.name).toEqual(columns)
    }
  })
})
