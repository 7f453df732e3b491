import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely'
import type { Engine } from '@/adapters/sql/database'

/** Index of the list query: newest first, the id breaking ties. */
export const NEWS_LIST_INDEX = 'news_created_at_id_idx'

/**
 * The schema's history, in code so that a bundled server needs no migration files on disk.
 * Append new migrations; never edit one that has shipped.
 */
function migrations(engine: Engine): Record<string, Migration> {
  const postgres = engine === 'postgres'
  const instant = postgres ? 'timestamptz' : 'text'
  // Byte order for ids in both engines, so that the tie-break and the cursor agree everywhere.
  const idType = postgres ? sql`text collate "C"` : 'text'

  return {
    '0001-news': {
      async up(db: Kysely<unknown>): Promise<void> {
        await db.schema
          .createTable('news')
          .addColumn('id', idType, (column) => column.primaryKey().notNull())
          .addColumn('title', 'text', (column) => column.notNull())
          .addColumn('body', 'text', (column) => column.notNull())
          .addColumn('author', 'text', (column) => column.notNull())
          .addColumn('created_at', instant, (column) => column.notNull())
          .execute()
        await db.schema
          .createIndex(NEWS_LIST_INDEX)
          .on('news')
          .columns(['created_at desc', 'id desc'])
          .execute()
      },
    },
    '0002-outbox': {
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
    },
  }
}

class InCodeMigrationProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.engine)
  }
}

/** Brings the schema up to date; safe to run on every start and from several processes. */
export async function migrateToLatest<DB>(db: Kysely<DB>, engine: Engine): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new InCodeMigrationProvider(engine),
    // Kysely looks for its bookkeeping tables in every schema; pin them to ours, so that another
    // application's migrations, or a second NewsWire in another schema, cannot be mistaken for ours.
    migrationTableSchema: engine === 'postgres' ? await currentSchema(db) : undefined,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName
    throw new Error(
      failed === undefined
        ? 'could not migrate the database'
        : `could not apply migration ${failed}`,
      { cause: error },
    )
  }
}

async function currentSchema<DB>(db: Kysely<DB>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  )
  return rows[0]?.schema ?? undefined
}
