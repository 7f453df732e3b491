import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { CompiledQuery, Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely'
import { Client, Pool } from 'pg'
import { parseDatabaseUrl } from '@/application/database-target'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import {
  selectChangedSince,
  selectNewsPage,
  selectRevisionPage,
  selectSearchTier,
  selectTrashPage,
} from '@/adapters/sql/news/queries'
import { SqlNewsStore, type SqlNewsStoreOptions } from '@/adapters/sql/news/store'
import type { KeysetPosition } from '@/adapters/shared/keyset-cursor'
import type { LoggedNewsStore } from '@/application/ports/change-log.port'
import type { SearchTier } from '@/domain/rules/search-query.rules'

/** A place for one test's database: its DATABASE_URL, and how to throw it away. */
export interface TestStore {
  readonly url: string
  dispose(): Promise<void>
}

export interface TestStoreKind {
  readonly name: string
  readonly create: () => Promise<TestStore>
  /** Whether a second openDatabase(url) sees the same data (not so for :memory:). */
  readonly persistent: boolean
}

export const sqliteFile: TestStoreKind = {
  name: 'SQLite file',
  persistent: true,
  async create() {
    const folder = await mkdtemp(join(tmpdir(), 'newswire-sql-'))
    return {
      // A folder that does not exist yet: openDatabase must create it.
      url: `sqlite:${join(folder, 'data', 'newswire.db')}`,
      dispose: () => rm(folder, { recursive: true, force: true }),
    }
  },
}

export const sqliteMemory: TestStoreKind = {
  name: 'SQLite :memory:',
  persistent: false,
  async create() {
    return { url: 'sqlite::memory:', dispose: async () => undefined }
  },
}

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL?.trim() || undefined

export const POSTGRES_SKIPPED =
  'PostgreSQL: SKIPPED because TEST_POSTGRES_URL is not set (start one with scripts/ci-postgres.sh)'

/** Each test gets a fresh schema in TEST_POSTGRES_URL's database, first on its search_path. */
export function postgresSchema(baseUrl: string): TestStoreKind {
  const admin = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ connectionString: baseUrl })
    await client.connect()
    try {
      return await work(client)
    } finally {
      await client.end()
    }
  }
  return {
    name: 'PostgreSQL',
    persistent: true,
    async create() {
      const schema = `newswire_test_${randomBytes(6).toString('hex')}`
      await admin((client) => client.query(`create schema ${schema}`))
      const url = new URL(baseUrl)
      url.searchParams.set('options', `-c search_path=${schema}`)
      return {
        url: url.toString(),
        dispose: async () => {
          await admin((client) => client.query(`drop schema ${schema} cascade`))
        },
      }
    },
  }
}

/** A fresh, empty NewsStore for one test, and for SQL engines the database beneath it. */
/**
 * The databases that several servers share: a SQLite file always, PostgreSQL when
 * TEST_POSTGRES_URL is set.
 */
export const SHARED_STORE_KINDS: readonly TestStoreKind[] = [
  sqliteFile,
  ...(TEST_POSTGRES_URL === undefined ? [] : [postgresSchema(TEST_POSTGRES_URL)]),
]

export interface OpenedNewsStore {
  readonly store: LoggedNewsStore
  /** Absent for the in-memory store. */
  readonly sql?: { readonly database: SqlDatabase; readonly url: string }
}

/** Where a contract runs: memory, or one SQL engine. */
export interface NewsStoreKind {
  readonly name: string
  readonly engine: 'memory' | 'sqlite' | 'postgres'
  /** Whether a second openDatabase(url) sees the same data (not so for :memory:). */
  readonly persistent: boolean
  /** Opens a fresh store; `cleanups` receives what closes and removes it, in opening order. */
  open(
    cleanups: Array<() => Promise<void>>,
    options?: SqlNewsStoreOptions,
  ): Promise<OpenedNewsStore>
}

export const memoryStore: NewsStoreKind = {
  name: 'memory',
  engine: 'memory',
  persistent: false,
  async open() {
    return { store: new MemoryNewsStore() }
  },
}

/** A SQL engine's test databases as a NewsStoreKind. */
export function sqlStore(kind: TestStoreKind): NewsStoreKind {
  return {
    name: kind.name,
    engine: kind.name === 'PostgreSQL' ? 'postgres' : 'sqlite',
    persistent: kind.persistent,
    async open(cleanups, options) {
      const place = await kind.create()
      cleanups.push(() => place.dispose())
      const database = await openDatabase(place.url)
      cleanups.push(() => database.close())
      return { store: new SqlNewsStore(database, options), sql: { database, url: place.url } }
    },
  }
}

/** Runs every cleanup, the last opened first. */
export async function runCleanups(cleanups: Array<() => Promise<void>>): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
}

/** The plan the engine picks for the store's own list query, as text. */
export function explainNewsPage(database: SqlDatabase, after?: KeysetPosition): Promise<string> {
  return explain(database, selectNewsPage(database.db, 25, after).compile())
}

/** The plan the engine picks for the store's trash query, as text. */
export function explainTrashPage(database: SqlDatabase, after?: KeysetPosition): Promise<string> {
  return explain(database, selectTrashPage(database.db, 25, after).compile())
}

/** The plan the engine picks for the store's history query of one post, as text. */
export function explainRevisionPage(
  database: SqlDatabase,
  newsId: string,
  before?: number,
): Promise<string> {
  return explain(database, selectRevisionPage(database.db, newsId, 51, before).compile())
}

/** The plan the engine picks for the undo's query of recent revisions, as text. */
export function explainChangedSince(database: SqlDatabase, instant: string): Promise<string> {
  return explain(database, selectChangedSince(database.db, instant).compile())
}

/** The plan the engine picks for one tier of the store's search, as text. */
export function explainSearchTier(
  database: SqlDatabase,
  terms: readonly string[],
  tier: SearchTier,
  before?: number,
): Promise<string> {
  return explain(
    database,
    selectSearchTier(database.db, database.engine, terms, tier, before, 25).compile(),
  )
}

async function explain(
  database: SqlDatabase,
  compiled: { readonly sql: string; readonly parameters: readonly unknown[] },
): Promise<string> {
  const parameters = [...compiled.parameters]
  if (database.engine === 'sqlite') {
    const plan = await database.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, parameters),
    )
    return plan.rows.map((row) => row.detail).join('\n')
  }
  // A test table is tiny, and a sequential scan, or a bitmap scan and a sort, is then cheaper;
  // forbid both to see the plan a large table gets.
  return database.db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection)
    await sql`set enable_bitmapscan = off`.execute(connection)
    try {
      const plan = await connection.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${compiled.sql}`, parameters),
      )
      return plan.rows.map((row) => row['QUERY PLAN']).join('\n')
    } finally {
      await sql`reset enable_seqscan`.execute(connection)
      await sql`reset enable_bitmapscan`.execute(connection)
    }
  })
}

/** A connection to the test's database that runs no migration by itself. */
export function rawDatabase(url: string): Kysely<NewsWireSchema> {
  const target = parseDatabaseUrl(url)
  return target.engine === 'sqlite'
    ? new Kysely({ dialect: new SqliteDialect({ database: new SQLite(target.path) }) })
    : new Kysely({
        dialect: new PostgresDialect({
          pool: new Pool({ connectionString: target.connectionString, max: 1 }),
        }),
      })
}

/** Empties the test's database, so that it can be built up migration by migration. */
export async function resetSchema(db: Kysely<NewsWireSchema>): Promise<void> {
  for (const table of await db.introspection.getTables()) {
    // Dropping SQLite's full-text index drops its shadow tables with it, later in the list.
    await sql`drop table if exists ${sql.table(table.name)}`.execute(db)
  }
  await sql`drop table if exists kysely_migration`.execute(db)
  await sql`drop table if exists kysely_migration_lock`.execute(db)
}
