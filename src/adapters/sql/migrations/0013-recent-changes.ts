import type { Kysely, Migration } from 'kysely'
import {
  NEWS_CHANGE_AT_INDEX,
  NEWS_CHANGE_REVISION_INDEX,
} from '@/adapters/sql/migrations/index-names'
import { createIndexes } from '@/adapters/sql/migrations/create-indexes'

export const migrationRecentChanges: Migration = {
  // The change log is the recent changes' list now, kept a month instead of a day: one editor's
  // changes are found from their revisions (news_revision's editor index) and joined back to
  // the log by post and revision, and the purge finds the month's end without reading it all.
  async up(db: Kysely<unknown>): Promise<void> {
    await createIndexes(db, 'news_change', {
      [NEWS_CHANGE_REVISION_INDEX]: ['news_id', 'revision'],
      [NEWS_CHANGE_AT_INDEX]: ['at'],
    })
  },
}
