import type { Kysely, Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'
import { NEWS_LIST_INDEX } from '@/adapters/sql/migrations/index-names'

export function migrationNews({ instant, idType }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('news')
        .addColumn('id', idType, (column) => column.primaryKey().notNull())
        .addColumn('title', 'text', (column) => column.notNull())
        .addColumn('body', 'text', (column) => column.notNull())
        .addColumn('author', 'text', (column) => column.notNull())
        .addColumn('created_at', instant, (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex(NEWS_LIST_INDEX)
        .on('news')
        .columns(['created_at desc', 'id desc'])
        .execute()
    },
  }
}
