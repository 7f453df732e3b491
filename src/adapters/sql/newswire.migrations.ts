import {
  DEFAULT_MIGRATION_TABLE,
  Migrator,
  sql,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely'
import type { Engine } from '@/application/database-target'
import { columnTypesOf } from '@/adapters/sql/migrations/column-types'
import { migrationNews } from '@/adapters/sql/migrations/0001-news'
import { migrationOutbox } from '@/adapters/sql/migrations/0002-outbox'
import { migrationHistory } from '@/adapters/sql/migrations/0003-history'
import { migrationRateLimit } from '@/adapters/sql/migrations/0004-rate-limit'
import { migrationSiteVersion } from '@/adapters/sql/migrations/0005-site-version'
import { migrationSearch } from '@/adapters/sql/migrations/0006-search'
import { migrationChangeLog } from '@/adapters/sql/migrations/0007-change-log'
import { migrationEventStreamLeases } from '@/adapters/sql/migrations/0008-event-stream-leases'
import { migrationRefoldSearch } from '@/adapters/sql/migrations/0009-refold-search'
import { migrationSiteSecrets } from '@/adapters/sql/migrations/0010-site-secrets'
import { migrationEditors } from '@/adapters/sql/migrations/0011-editors'
import { migrationModeration } from '@/adapters/sql/migrations/0012-moderation'
import { migrationRecentChanges } from '@/adapters/sql/migrations/0013-recent-changes'
import { migrationSitemapBlocks } from '@/adapters/sql/migrations/0014-sitemap-blocks'
import { seeingOneSchema } from '@/adapters/sql/one-schema-introspection'
import { runTransaction } from '@/adapters/sql/transactions'

/**
 * The schema's history, one file a migration in migrations/, in code so that a bundled server
 * needs no migration files on disk. Append new migrations; never edit one that has shipped.
 */
function migrations(engine: Engine): Record<string, Migration> {
  const types = columnTypesOf(engine)
  return {
    '0001-news': migrationNews(types),
    '0002-outbox': migrationOutbox(types),
    '0003-history': migrationHistory(types),
    '0004-rate-limit': migrationRateLimit(types),
    '0005-site-version': migrationSiteVersion,
    '0006-search': migrationSearch(types),
    '0007-change-log': migrationChangeLog(types),
    '0008-event-stream-leases': migrationEventStreamLeases,
    '0009-refold-search': migrationRefoldSearch(types),
    '0010-site-secrets': migrationSiteSecrets,
    '0011-editors': migrationEditors,
    '0012-moderation': migrationModeration(types),
    '0013-recent-changes': migrationRecentChanges,
    '0014-sitemap-blocks': migrationSitemapBlocks(types),
  }
}

/** The name of the newest migration: the schema version a current database has. */
export function newestMigration(): string {
  return Object.keys(migrations('sqlite')).sort().at(-1) ?? ''
}

class InCodeMigrationProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.engine)
  }
}

/**
 * Brings the schema up to date; safe to run on every start and from several processes. A schema
 * that is already current is left alone without taking the migration lock: Kysely's lock on
 * PostgreSQL is a session advisory lock, which a transaction-pooling PgBouncer could take on one
 * server connection and release on another (docs/operations.md), so only an upgrade takes it.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, engine: Engine): Promise<void> {
  if (await isCurrent(db, engine)) return
  await migrate(db, engine, (migrator) => migrator.migrateToLatest())
}

/** Where the schema stands: its latest applied migration, and whether it is this code's latest. */
export interface SchemaState {
  /** The name of the latest migration applied (e.g. `0009-refold-search`); null before any. */
  readonly version: string | null
  /** Whether every migration this code knows is applied. */
  readonly current: boolean
}

/** Where the schema stands; a database without the bookkeeping table stands before any migration. */
export async function schemaState<DB>(db: Kysely<DB>, engine: Engine): Promise<SchemaState> {
  const schema = engine === 'postgres' ? await currentSchema(db) : undefined
  const table = sql.table(
    schema === undefined ? DEFAULT_MIGRATION_TABLE : `${schema}.${DEFAULT_MIGRATION_TABLE}`,
  )
  let applied: string[]
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db)
    applied = rows.map((row) => row.name)
  } catch {
    // No table yet (a new database): the migrator creates it.
    return { version: null, current: false }
  }
  const names = new Set(applied)
  return {
    // The names sort in the order they were written (0001-…, 0002-…).
    version: applied.sort().at(-1) ?? null,
    current: Object.keys(migrations(engine)).every((name) => names.has(name)),
  }
}

/** The migrations this code knows, by name, in the order they apply. */
export function migrationNames(engine: Engine): string[] {
  return Object.keys(migrations(engine)).sort()
}

async function isCurrent<DB>(db: Kysely<DB>, engine: Engine): Promise<boolean> {
  return (await schemaState(db, engine)).current
}

/** Brings the schema up to the named migration and no further; for tests of upgrades. */
export function migrateTo<DB>(db: Kysely<DB>, engine: Engine, name: string): Promise<void> {
  return migrate(db, engine, (migrator) => migrator.migrateTo(name))
}

async function migrate<DB>(
  db: Kysely<DB>,
  engine: Engine,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<void> {
  if (engine === 'sqlite') {
    // Kysely runs SQLite migrations outside a transaction and without a lock. One immediate
    // transaction makes a migration all or nothing, and makes a second process that starts at
    // the same moment wait for it instead of applying it twice. (On PostgreSQL, Kysely's
    // migrator takes its own transaction and advisory lock.)
    await runTransaction(db, engine, (connection) => runMigrator(connection, engine, run), {
      durable: true,
    })
    return
  }
  await runMigrator(db, engine, run)
}

async function runMigrator<DB>(
  db: Kysely<DB>,
  engine: Engine,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema; pin them to ours, so that another
  // application's migrations, or a second NewsWire in another schema, cannot be mistaken for ours.
  const schema = engine === 'postgres' ? await currentSchema(db) : undefined
  const migrator = new Migrator({
    db: schema === undefined ? db : seeingOneSchema(db, schema),
    provider: new InCodeMigrationProvider(engine),
    migrationTableSchema: schema,
  })
  const { error, results } = await run(migrator)
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
