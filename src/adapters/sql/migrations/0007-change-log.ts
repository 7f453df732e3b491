import { sql, type Kysely, type Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'

export function migrationChangeLog({ postgres, instant, idType }: ColumnTypes): Migration {
  return {
    // The live stream's change log (SqlNewsStore): one row per revision, numbered by the
    // version its write raised site_version to; the primary key is the order readers follow
    // (on SQLite an integer primary key is the table's rowid itself).
    // The log of an upgraded database begins now: a reader that saw an older version is told
    // to reload, as if the purge had removed everything up to the current version.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('news_change')
        .addColumn('seq', postgres ? 'bigint' : 'integer', (column) =>
          column.primaryKey().notNull(),
        )
        .addColumn('news_id', idType, (column) => column.notNull())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('revision', 'integer', (column) => column.notNull())
        .addColumn('at', instant, (column) => column.notNull())
        .addCheckConstraint(
          'news_change_kind_check',
          sql`kind in ('created', 'edited', 'deleted', 'restored')`,
        )
        .execute()
      await sql`alter table site_version add column changes_purged_through bigint not null default 0`.execute(
        db,
      )
      await sql`update site_version set changes_purged_through = version`.execute(db)
    },
  }
}
