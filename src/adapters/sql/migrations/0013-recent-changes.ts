import type { Kysely, Migration } from 'kysely'
import {
  NEWS_CHANGE_AT_INDEX,
  NEWS_CHANGE_REVISION_INDEX,
} from '@/adapters/sql/migrations/index-names'

export const migrationRecentChanges: Migration = {
  // The change log is the recent changes' list now, kept a month instead of a day: one editor's
  // changes are found from their revisions (news_revision's editor index) and joined back to
  // the log by post and revision, and the purge finds the month's end without reading it all.
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex(NEWS_CHANGE_REVISION_INDEX)
      .on('news_change')
      .columns(['news_id', 'revision'])
      .execute()
    await db.schema.createIndex(NEWS_CHANGE_AT_INDEX).on('news_change').column('at').execute()
  },
}
