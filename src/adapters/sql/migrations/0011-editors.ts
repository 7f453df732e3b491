import { sql, type Kysely, type Migration } from 'kysely'
import { NEWS_REVISION_EDITOR_INDEX } from '@/adapters/sql/migrations/index-names'

export const migrationEditors: Migration = {
  // Every revision records its editor (domain/editor.ts): a client's pseudonym, never its
  // address, or `operator`. Revisions made before this migration were not attributed.
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table news_revision add column editor text not null default 'unknown'`.execute(
      db,
    )
    await db.schema
      .createIndex(NEWS_REVISION_EDITOR_INDEX)
      .on('news_revision')
      .columns(['editor', 'at'])
      .execute()
  },
}
