import type { Kysely, Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'
import { RATE_LIMIT_WINDOW_END_INDEX } from '@/adapters/sql/migrations/index-names'
import { createIndexes } from '@/adapters/sql/migrations/create-indexes'

export function migrationRateLimit({ postgres }: ColumnTypes): Migration {
  return {
    // The write limit's counts, one row per client key with the end of its current window,
    // shared by every server; the index on the ends makes sweeping past windows a range scan.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('rate_limit')
        .addColumn('key', 'text', (column) => column.primaryKey().notNull())
        .addColumn('window_end', postgres ? 'bigint' : 'integer', (column) => column.notNull())
        .addColumn('count', 'integer', (column) => column.notNull())
        .execute()
      await createIndexes(db, 'rate_limit', {
        [RATE_LIMIT_WINDOW_END_INDEX]: ['window_end'],
      })
    },
  }
}
