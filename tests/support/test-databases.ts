/**
 * The databases the tests run on: SQLite always, PostgreSQL when TEST_POSTGRES_URL is set
 * (scripts/ci-postgres.sh starts one); the suites say so when it is skipped.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from 'pg'

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
  name: 'SQLite',
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

/**
 * A suite that needs PostgreSQL, given TEST_POSTGRES_URL's database: skipped without one, and
 * said so, never quietly.
 */
export function describeOnPostgres(title: string, body: (url: string) => void): void {
  if (TEST_POSTGRES_URL === undefined) console.warn(POSTGRES_SKIPPED)
  describe.skipIf(TEST_POSTGRES_URL === undefined)(title, () => body(TEST_POSTGRES_URL ?? ''))
}

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

/** Every engine: a SQLite file, SQLite :memory:, and PostgreSQL when set. */
export const ALL_STORE_KINDS: readonly TestStoreKind[] = [
  sqliteFile,
  sqliteMemory,
  ...(TEST_POSTGRES_URL === undefined ? [] : [postgresSchema(TEST_POSTGRES_URL)]),
]

/** The databases that several servers can share: a SQLite file, and PostgreSQL when set. */
export const SHARED_STORE_KINDS: readonly TestStoreKind[] = [
  sqliteFile,
  ...(TEST_POSTGRES_URL === undefined ? [] : [postgresSchema(TEST_POSTGRES_URL)]),
]

let postgresNoted = false

/**
 * `describe.each` over the databases several servers can share; in a run without PostgreSQL,
 * a skipped test in the file's report says so, once.
 */
export function describeOnDatabases(title: string, body: (kind: TestStoreKind) => void): void {
  if (TEST_POSTGRES_URL === undefined && !postgresNoted) {
    postgresNoted = true
    it.skip(POSTGRES_SKIPPED)
  }
  describe.each(SHARED_STORE_KINDS)(title, body)
}

/** Runs every cleanup, the last opened first. */
export async function runCleanups(cleanups: Array<() => Promise<void>>): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
}
