import { sql, type Kysely, type Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'
import {
  CLIENT_BLOCK_TARGET_INDEX,
  OPERATOR_ACTION_AT_INDEX,
} from '@/adapters/sql/migrations/index-names'
import { createIndexes } from '@/adapters/sql/migrations/create-indexes'

export function migrationModeration({ instant, idType }: ColumnTypes): Migration {
  return {
    // The operator's tools (application/moderation/*): blocks of clients, protected posts,
    // revisions hidden by the operator, and the log of what the operator did.
    async up(db: Kysely<unknown>): Promise<void> {
      // A block names a client's pseudonym (an address is blocked by its pseudonym, so that no
      // address is stored) or a range of addresses the operator wrote (CIDR).
      await db.schema
        .createTable('client_block')
        .addColumn('id', 'text', (column) => column.primaryKey().notNull())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('target', 'text', (column) => column.notNull())
        .addColumn('reason', 'text', (column) => column.notNull())
        .addColumn('created_at', instant, (column) => column.notNull())
        .addColumn('expires_at', instant)
        .addCheckConstraint('client_block_kind_check', sql`kind in ('editor', 'range')`)
        .execute()
      await createIndexes(db, 'client_block', {
        [CLIENT_BLOCK_TARGET_INDEX]: ['kind', 'target'],
      })

      await db.schema
        .createTable('news_protection')
        .addColumn('news_id', idType, (column) => column.primaryKey().notNull())
        .addColumn('reason', 'text', (column) => column.notNull())
        .addColumn('created_at', instant, (column) => column.notNull())
        .execute()

      // A hidden revision keeps its time, action and editor; its text is erased.
      await db.schema.alterTable('news_revision').addColumn('hidden_at', instant).execute()

      await db.schema
        .createTable('operator_action')
        .addColumn('id', 'text', (column) => column.primaryKey().notNull())
        .addColumn('at', instant, (column) => column.notNull())
        .addColumn('operator', 'text', (column) => column.notNull())
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('target', 'text', (column) => column.notNull())
        .addColumn('reason', 'text', (column) => column.notNull())
        .addColumn('detail', 'text', (column) => column.notNull())
        .execute()
      await createIndexes(db, 'operator_action', {
        [OPERATOR_ACTION_AT_INDEX]: ['at', 'id'],
      })
    },
  }
}
