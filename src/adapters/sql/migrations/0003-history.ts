import { sql, type Kysely, type Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'
import {
  NEWS_LIST_INDEX,
  NEWS_TRASH_INDEX,
  NEWS_REVISION_AT_INDEX,
  IDEMPOTENCY_KEY_CREATED_AT_INDEX,
} from '@/adapters/sql/migrations/index-names'
import { createIndexes } from '@/adapters/sql/migrations/create-indexes'

export function migrationHistory({ postgres, instant, idType }: ColumnTypes): Migration {
  return {
    // Revisions, the trash and idempotency keys. Existing posts become revision 1 of their
    // history, as if just created, so that an old database gains a history too.
    async up(db: Kysely<unknown>): Promise<void> {
      if (postgres) {
        await sql`alter table news add column updated_at timestamptz`.execute(db)
        await sql`update news set updated_at = created_at`.execute(db)
        await sql`alter table news alter column updated_at set not null`.execute(db)
      } else {
        // SQLite adds a NOT NULL column only with a default; every write sets it anyway.
        await sql`alter table news add column updated_at text not null default ''`.execute(db)
        await sql`update news set updated_at = created_at`.execute(db)
      }
      await sql`alter table news add column revision integer not null default 1`.execute(db)
      await db.schema.alterTable('news').addColumn('deleted_at', instant).execute()

      // The list reads live posts only: a partial index keeps it one range scan, however
      // full the trash.
      await db.schema.dropIndex(NEWS_LIST_INDEX).execute()
      await db.schema
        .createIndex(NEWS_LIST_INDEX)
        .on('news')
        .columns(['created_at desc', 'id desc'])
        .where(sql.ref('deleted_at'), 'is', null)
        .execute()
      await db.schema
        .createIndex(NEWS_TRASH_INDEX)
        .on('news')
        .columns(['deleted_at desc', 'id desc'])
        .where(sql.ref('deleted_at'), 'is not', null)
        .execute()

      await db.schema
        .createTable('news_revision')
        .addColumn('news_id', idType, (column) => column.notNull())
        .addColumn('revision', 'integer', (column) => column.notNull())
        .addColumn('title', 'text', (column) => column.notNull())
        .addColumn('body', 'text', (column) => column.notNull())
        .addColumn('author', 'text', (column) => column.notNull())
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('at', instant, (column) => column.notNull())
        .addColumn('restored_from', 'integer')
        // Two writers that both made revision N+1 of a post: one of them fails, not both win.
        .addPrimaryKeyConstraint('news_revision_pkey', ['news_id', 'revision'])
        .addCheckConstraint(
          'news_revision_action_check',
          sql`action in ('create', 'edit', 'delete', 'restore')`,
        )
        .execute()
      await createIndexes(db, 'news_revision', {
        [NEWS_REVISION_AT_INDEX]: ['at'],
      })
      await sql`
        insert into news_revision (news_id, revision, title, body, author, action, at)
        select id, 1, title, body, author, 'create', created_at from news
      `.execute(db)

      await db.schema
        .createTable('idempotency_key')
        .addColumn('key', 'text', (column) => column.primaryKey().notNull())
        .addColumn('fingerprint', 'text', (column) => column.notNull())
        .addColumn('news_id', idType, (column) => column.notNull())
        .addColumn('created_at', instant, (column) => column.notNull())
        .execute()
      await createIndexes(db, 'idempotency_key', {
        [IDEMPOTENCY_KEY_CREATED_AT_INDEX]: ['created_at'],
      })
    },
  }
}
