import { sql, type Kysely, type Migration } from 'kysely'

export const migrationSiteVersion: Migration = {
  // The change signal (see SqlNewsStore): one row whose counter every write raises, so that
  // a server can tell with one primary-key lookup whether what it keeps in memory is current.
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('site_version')
      .addColumn('id', 'integer', (column) => column.primaryKey().notNull())
      .addColumn('version', 'bigint', (column) => column.notNull())
      .addCheckConstraint('site_version_one_row', sql`id = 1`)
      .execute()
    await sql`insert into site_version (id, version) values (1, 0)`.execute(db)
  },
}
