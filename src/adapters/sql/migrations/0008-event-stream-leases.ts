import type { Kysely, Migration } from 'kysely'
import {
  EVENT_STREAM_LEASE_CLIENT_INDEX,
  EVENT_STREAM_LEASE_HOLDER_INDEX,
  EVENT_STREAM_LEASE_EXPIRES_INDEX,
} from '@/adapters/sql/migrations/index-names'
import { createIndexes } from '@/adapters/sql/migrations/create-indexes'

export const migrationEventStreamLeases: Migration = {
  // The live streams open per client, counted by every server (sql-stream-leases.ts).
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('event_stream_lease')
      .addColumn('id', 'text', (column) => column.primaryKey().notNull())
      .addColumn('client', 'text', (column) => column.notNull())
      .addColumn('holder', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute()
    await createIndexes(db, 'event_stream_lease', {
      [EVENT_STREAM_LEASE_CLIENT_INDEX]: ['client', 'expires_at'],
      [EVENT_STREAM_LEASE_HOLDER_INDEX]: ['holder'],
      [EVENT_STREAM_LEASE_EXPIRES_INDEX]: ['expires_at'],
    })
  },
}
