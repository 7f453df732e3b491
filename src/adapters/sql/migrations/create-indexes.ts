import type { Kysely } from 'kysely'

/** Creates plain indexes on `table`: each named by its key, over its columns in order. */
export async function createIndexes(
  db: Kysely<unknown>,
  table: string,
  indexes: Readonly<Record<string, readonly string[]>>,
): Promise<void> {
  for (const [name, columns] of Object.entries(indexes)) {
    await db.schema
      .createIndex(name)
      .on(table)
      .columns([...columns])
      .execute()
  }
}
