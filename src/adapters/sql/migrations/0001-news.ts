import type { Kysely, Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'
import { NEWS_LIST_INDEX } from '@/adapters/sql/migrations/index-names'
import { createIndexes } from '@/adapters/sql/migrations/create-indexes'

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
      await createIndexes(db, 'news', {
        [NEWS_LIST_INDEX]: ['created_at desc', 'id desc'],
      })
    },
  }
}
