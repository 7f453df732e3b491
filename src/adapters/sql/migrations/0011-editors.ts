import { sql, type Kysely, type Migration } from 'kysely'
import { NEWS_REVISION_EDITOR_INDEX } from '@/adapters/sql/migrations/index-names'
import { createIndexes } from '@/adapters/sql/migrations/create-indexes'

export const migrationEditors: Migration = {
  // Every revision records its editor (domain/editor.ts): a client's pseudonym, never its
  // address, or `operator`. Revisions made before this migration were not attributed.
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table news_revision add column editor text not null default 'unknown'`.execute(
      db,
    )
    await createIndexes(db, 'news_revision', {
      [NEWS_REVISION_EDITOR_INDEX]: ['editor', 'at'],
    })
  },
}
