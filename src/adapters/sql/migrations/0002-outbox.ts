import type { Kysely, Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'

export function migrationOutbox({ postgres, instant }: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('outbox_message')
        .addColumn('id', 'integer', (column) =>
          postgres
            ? column.primaryKey().generatedAlwaysAsIdentity()
            : column.primaryKey().autoIncrement(),
        )
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('message', 'text', (column) => column.notNull())
        .addColumn('service_id', 'text')
        .addColumn('template_id', 'text')
        .addColumn('received_at', instant, (column) => column.notNull())
        .execute()
    },
  }
}
