import {
  DEFAULT_MIGRATION_TABLE,
  Migrator,
  sql,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely'
import { searchDocumentOf } from '@/domain/rules/search-query.rules'
import type { Engine } from '@/application/database-target'
import { indexedWords, SQLITE_SEARCH_TABLE, wordsText } from '@/adapters/sql/news-search.sql'

/** Index of the write limit's sweep: the ends of the clients' windows. */
export const RATE_LIMIT_WINDOW_END_INDEX = 'rate_limit_window_end_idx'

/** Index of the list query: live posts, newest first, the id breaking ties. */
export const NEWS_LIST_INDEX = 'news_created_at_id_idx'
/** Index of the trash: trashed posts, newest deletion first, the id breaking ties. */
export const NEWS_TRASH_INDEX = 'news_deleted_at_id_idx'
/** Index of the revisions made since an instant, for the operator's undo. */
export const NEWS_REVISION_AT_INDEX = 'news_revision_at_idx'
/** Index of the idempotency keys by age, for the purge. */
export const IDEMPOTENCY_KEY_CREATED_AT_INDEX = 'idempotency_key_created_at_idx'
/** Unique index of the posts' publication order, search's ranking and cursor. */
export const NEWS_SEARCH_SEQ_INDEX = 'news_search_seq_idx'
/** PostgreSQL's GIN index of live posts' words. */
export const NEWS_SEARCH_VECTOR_INDEX = 'news_search_vector_idx'
/** Index of the live streams' leases by client, to count one client's. */
export const EVENT_STREAM_LEASE_CLIENT_INDEX = 'event_stream_lease_client_idx'
/** Index of the leases by holder, for a server's renewal of all of its own. */
export const EVENT_STREAM_LEASE_HOLDER_INDEX = 'event_stream_lease_holder_idx'
/** Index of the leases by expiry, for the sweep of those no server renews. */
export const EVENT_STREAM_LEASE_EXPIRES_INDEX = 'event_stream_lease_expires_at_idx'
/** How many posts the search migration indexes per statement. */
const SEARCH_BACKFILL_BATCH = 500

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
    '0003-history': {
      // Revisions, the trash and idempotency keys. Existing posts become revision 1 of their
      // history, as if just created, so that an old database gains a history too.
      async up(db: Kysely<unknown>): Promise<void> {
        if (postgres) {
          await sql`alter table news add column updated_at timestamptz`.execute(db)
          await sql`update news set updated_at = created_at`.execute(db)
          await sql`alter table news alter column updated_at set not null`.execute(db)
        } else {
          // SQLite adds a NOT NULL column only with a default; every write sets it anyway.
          await sql`alter table news add column updated_at text not null default ''`.execute(db)
          await sql`update news set updated_at = created_at`.execute(db)
        }
        await sql`alter table news add column revision integer not null default 1`.execute(db)
        await db.schema.alterTable('news').addColumn('deleted_at', instant).execute()

        // The list reads live posts only: a partial index keeps it one range scan, however
        // full the trash.
        await db.schema.dropIndex(NEWS_LIST_INDEX).execute()
        await db.schema
          .createIndex(NEWS_LIST_INDEX)
          .on('news')
          .columns(['created_at desc', 'id desc'])
          .where(sql.ref('deleted_at'), 'is', null)
          .execute()
        await db.schema
          .createIndex(NEWS_TRASH_INDEX)
          .on('news')
          .columns(['deleted_at desc', 'id desc'])
          .where(sql.ref('deleted_at'), 'is not', null)
          .execute()

        await db.schema
          .createTable('news_revision')
          .addColumn('news_id', idType, (column) => column.notNull())
          .addColumn('revision', 'integer', (column) => column.notNull())
          .addColumn('title', 'text', (column) => column.notNull())
          .addColumn('body', 'text', (column) => column.notNull())
          .addColumn('author', 'text', (column) => column.notNull())
          .addColumn('action', 'text', (column) => column.notNull())
          .addColumn('at', instant, (column) => column.notNull())
          .addColumn('restored_from', 'integer')
          // Two writers that both made revision N+1 of a post: one of them fails, not both win.
          .addPrimaryKeyConstraint('news_revision_pkey', ['news_id', 'revision'])
          .addCheckConstraint(
            'news_revision_action_check',
            sql`action in ('create', 'edit', 'delete', 'restore')`,
          )
          .execute()
        await db.schema
          .createIndex(NEWS_REVISION_AT_INDEX)
          .on('news_revision')
          .column('at')
          .execute()
        await sql`
          insert into news_revision (news_id, revision, title, body, author, action, at)
          select id, 1, title, body, author, 'create', created_at from news
        `.execute(db)

        await db.schema
          .createTable('idempotency_key')
          .addColumn('key', 'text', (column) => column.primaryKey().notNull())
          .addColumn('fingerprint', 'text', (column) => column.notNull())
          .addColumn('news_id', idType, (column) => column.notNull())
          .addColumn('created_at', instant, (column) => column.notNull())
          .execute()
        await db.schema
          .createIndex(IDEMPOTENCY_KEY_CREATED_AT_INDEX)
          .on('idempotency_key')
          .column('created_at')
          .execute()
      },
    },
    '0004-rate-limit': {
      // The write limit's counts, one row per client key with the end of its current window,
      // shared by every server; the index on the ends makes sweeping past windows a range scan.
      async up(db: Kysely<unknown>): Promise<void> {
        await db.schema
          .createTable('rate_limit')
          .addColumn('key', 'text', (column) => column.primaryKey().notNull())
          .addColumn('window_end', postgres ? 'bigint' : 'integer', (column) => column.notNull())
          .addColumn('count', 'integer', (column) => column.notNull())
          .execute()
        await db.schema
          .createIndex(RATE_LIMIT_WINDOW_END_INDEX)
          .on('rate_limit')
          .column('window_end')
          .execute()
      },
    },
    '0005-site-version': {
      // The change signal (see SqlNewsStore): one row whose counter every write raises, so that
      // a server can tell with one primary-key lookup whether what it keeps in memory is current.
      async up(db: Kysely<unknown>): Promise<void> {
        await db.schema
          .createTable('site_version')
          .addColumn('id', 'integer', (column) => column.primaryKey().notNull())
          .addColumn('version', 'bigint', (column) => column.notNull())
          .addCheckConstraint('site_version_one_row', sql`id = 1`)
          .execute()
        await sql`insert into site_version (id, version) values (1, 0)`.execute(db)
      },
    },
    '0006-search': {
      // Full-text search (adapters/sql/news-search.sql.ts). Posts get their place in publication
      // order, the posts already there numbered by creation, and every one is indexed here.
      async up(db: Kysely<unknown>): Promise<void> {
        await sql`alter table news add column search_seq ${sql.raw(postgres ? 'bigint' : 'integer')}`.execute(
          db,
        )
        await sql`
          update news set search_seq = ranked.seq
          from (select id, row_number() over (order by created_at, id) as seq from news) as ranked
          where news.id = ranked.id
        `.execute(db)
        await db.schema
          .createIndex(NEWS_SEARCH_SEQ_INDEX)
          .on('news')
          .column('search_seq')
          .unique()
          .execute()
        if (postgres) await addPostgresSearch(db)
        else await addSqliteSearch(db)
      },
    },
    '0007-change-log': {
      // The live stream's change log (SqlNewsStore): one row per revision, numbered by the
      // version its write raised site_version to; the primary key is the order readers follow
      // (on SQLite an integer primary key is the table's rowid itself).
      // The log of an upgraded database begins now: a reader that saw an older version is told
      // to reload, as if the purge had removed everything up to the current version.
      async up(db: Kysely<unknown>): Promise<void> {
        await db.schema
          .createTable('news_change')
          .addColumn('seq', postgres ? 'bigint' : 'integer', (column) =>
            column.primaryKey().notNull(),
          )
          .addColumn('news_id', idType, (column) => column.notNull())
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('revision', 'integer', (column) => column.notNull())
          .addColumn('at', instant, (column) => column.notNull())
          .addCheckConstraint(
            'news_change_kind_check',
            sql`kind in ('created', 'edited', 'deleted', 'restored')`,
          )
          .execute()
        await sql`alter table site_version add column changes_purged_through bigint not null default 0`.execute(
          db,
        )
        await sql`update site_version set changes_purged_through = version`.execute(db)
      },
    },
    '0008-event-stream-leases': {
      // The live streams open per client, counted by every server (sql-stream-leases.ts).
      async up(db: Kysely<unknown>): Promise<void> {
        await db.schema
          .createTable('event_stream_lease')
          .addColumn('id', 'text', (column) => column.primaryKey().notNull())
          .addColumn('client', 'text', (column) => column.notNull())
          .addColumn('holder', 'text', (column) => column.notNull())
          .addColumn('expires_at', 'bigint', (column) => column.notNull())
          .execute()
        await db.schema
          .createIndex(EVENT_STREAM_LEASE_CLIENT_INDEX)
          .on('event_stream_lease')
          .columns(['client', 'expires_at'])
          .execute()
        await db.schema
          .createIndex(EVENT_STREAM_LEASE_HOLDER_INDEX)
          .on('event_stream_lease')
          .column('holder')
          .execute()
        await db.schema
          .createIndex(EVENT_STREAM_LEASE_EXPIRES_INDEX)
          .on('event_stream_lease')
          .column('expires_at')
          .execute()
      },
    },
    '0009-refold-search': {
      // Search folds the Latin letters that have no decomposition (ø is o, æ is ae): every post
      // is indexed again with the words the domain folds now.
      async up(db: Kysely<unknown>): Promise<void> {
        if (postgres) {
          await indexPostgresPosts(db)
          await sql`analyze news`.execute(db)
        } else {
          await sql`insert into ${sql.id(SQLITE_SEARCH_TABLE)} (${sql.id(SQLITE_SEARCH_TABLE)}) values ('delete-all')`.execute(
            db,
          )
          await indexSqlitePosts(db)
        }
      },
    },
  }
}

async function addPostgresSearch(db: Kysely<unknown>): Promise<void> {
  // From here on the identity numbers each new post, after the ones numbered above.
  await sql`alter table news alter column search_seq set not null`.execute(db)
  await sql`alter table news alter column search_seq add generated by default as identity`.execute(
    db,
  )
  await sql`
    select setval(pg_get_serial_sequence('news', 'search_seq'),
                  (select coalesce(max(search_seq), 0) + 1 from news), false)
  `.execute(db)
  await sql`alter table news add column search_vector tsvector not null default ''`.execute(db)
  await sql`alter table news add column title_vector tsvector not null default ''`.execute(db)
  await indexPostgresPosts(db)
  await sql`
    create index ${sql.id(NEWS_SEARCH_VECTOR_INDEX)} on news using gin (search_vector)
    where deleted_at is null
  `.execute(db)
  // A search reads in search_seq order and stops at the page, unless its words are rare: then
  // the GIN index and a sort are cheaper. The planner can only tell rare words apart when the
  // statistics keep many words (an unknown word is estimated at half the rarest one kept); with
  // the default, a word in 27 of 100,000 posts walked all of them (80 ms instead of 1).
  await sql`alter table news alter column search_vector set statistics 1000`.execute(db)
  await sql`alter table news alter column title_vector set statistics 1000`.execute(db)
  await sql`analyze news`.execute(db)
}

/** Sets every post's words to what the domain folds them to now. */
async function indexPostgresPosts(db: Kysely<unknown>): Promise<void> {
  // Trashed posts too, so that a restore finds them indexed.
  await forEachPostBatch(db, false, async (posts) => {
    const words = posts.map((post) => indexedWords(searchDocumentOf(post)))
    await sql`
      update news set
        search_vector = array_to_tsvector(array_remove(string_to_array(batch.words, ' '), '')),
        title_vector = array_to_tsvector(array_remove(string_to_array(batch.title, ' '), ''))
      from unnest(${posts.map((post) => post.id)}::text[],
                  ${words.map((post) => wordsText(post.all))}::text[],
                  ${words.map((post) => wordsText(post.title))}::text[]) as batch (id, words, title)
      where news.id = batch.id
    `.execute(db)
  })
}

async function addSqliteSearch(db: Kysely<unknown>): Promise<void> {
  // Contentless: the index keeps the words, not a second copy of the text; deletable by rowid.
  await sql`
    create virtual table ${sql.id(SQLITE_SEARCH_TABLE)} using fts5(
      title, rest, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
    )
  `.execute(db)
  await indexSqlitePosts(db)
}

/** Adds every live post's words, as the domain folds them now, to the (empty) FTS5 table. */
async function indexSqlitePosts(db: Kysely<unknown>): Promise<void> {
  // Live posts only, as the store keeps it.
  await forEachPostBatch(db, true, async (posts) => {
    for (const post of posts) {
      const document = searchDocumentOf(post)
      await sql`
        insert into ${sql.id(SQLITE_SEARCH_TABLE)} (rowid, title, rest)
        values (${post.search_seq}, ${wordsText(document.title)}, ${wordsText(document.rest)})
      `.execute(db)
    }
  })
}

interface PostWords {
  readonly id: string
  readonly search_seq: number | string
  readonly title: string
  readonly body: string
  readonly author: string
}

/** Calls `work` with the posts (only the live ones, if `live`) a batch at a time, in id order. */
async function forEachPostBatch(
  db: Kysely<unknown>,
  live: boolean,
  work: (posts: readonly PostWords[]) => Promise<void>,
): Promise<void> {
  let after = ''
  for (;;) {
    const { rows } = await sql<PostWords>`
      select id, search_seq, title, body, author from news
      where id > ${after} ${live ? sql`and deleted_at is null` : sql``}
      order by id limit ${SEARCH_BACKFILL_BATCH}
    `.execute(db)
    const last = rows.at(-1)
    if (last === undefined) return
    await work(rows)
    after = last.id
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

/** Whether every migration is recorded as applied; false when the bookkeeping table is missing. */
async function isCurrent<DB>(db: Kysely<DB>, engine: Engine): Promise<boolean> {
  const schema = engine === 'postgres' ? await currentSchema(db) : undefined
  const table = sql.table(
    schema === undefined ? DEFAULT_MIGRATION_TABLE : `${schema}.${DEFAULT_MIGRATION_TABLE}`,
  )
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db)
    const applied = new Set(rows.map((row) => row.name))
    return Object.keys(migrations(engine)).every((name) => applied.has(name))
  } catch {
    // No table yet (a new database): the migrator creates it.
    return false
  }
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
    // the same moment wait for it instead of applying it twice.
    await db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection)
      try {
        await runMigrator(connection, engine, run)
        await sql`commit`.execute(connection)
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => undefined)
        throw error
      }
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
  const migrator = new Migrator({
    db,
    provider: new InCodeMigrationProvider(engine),
    // Kysely looks for its bookkeeping tables in every schema; pin them to ours, so that another
    // application's migrations, or a second NewsWire in another schema, cannot be mistaken for ours.
    migrationTableSchema: engine === 'postgres' ? await currentSchema(db) : undefined,
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
