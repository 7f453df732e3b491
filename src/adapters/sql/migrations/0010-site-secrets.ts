import type { Kysely, Migration } from 'kysely'

export const migrationSiteSecrets: Migration = {
  // The site's own secrets, made at the first start and shared by every server on the database
  // (site-secrets.ts): today the key of the editors' pseudonyms.
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('site_secret')
      .addColumn('name', 'text', (column) => column.primaryKey().notNull())
      .addColumn('value', 'text', (column) => column.notNull())
      .execute()
  },
}
