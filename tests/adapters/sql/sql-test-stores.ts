import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CompiledQuery, sql } from 'kysely'
import { Client } from 'pg'
import type { SqlDatabase } from '@/adapters/sql/database'
import type { CursorPosition } from '@/adapters/sql/news-cursor'
import { selectNewsPage } from '@/adapters/sql/sql-news.repository'

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

/** The plan the engine picks for the repository's own list query, as text. */
export async function explainNewsPage(
  database: SqlDatabase,
  after?: CursorPosition,
): Promise<string> {
  const compiled = selectNewsPage(database.db, 25, after).compile()
  const parameters = [...compiled.parameters]
  if (database.engine === 'sqlite') {
    const plan = await database.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, parameters),
    )
    return plan.rows.map((row) => row.detail).join('\n')
  }
  // A test table is tiny, and a sequential scan is then cheaper; forbid it to see the plan a
  // large table gets.
  return database.db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection)
    try {
      const plan = await connection.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${compiled.sql}`, parameters),
      )
      return plan.rows.map((row) => row['QUERY PLAN']).join('\n')
    } finally {
      await sql`reset enable_seqscan`.execute(connection)
    }
  })
}
