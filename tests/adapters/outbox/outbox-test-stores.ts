import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from 'pg'

/** A fresh database for one test: its DATABASE_URL, and how to throw it away. */
export interface OutboxTestStore {
  readonly url: string
  dispose(): Promise<void>
}

export interface OutboxTestEngine {
  readonly name: string
  readonly create: () => Promise<OutboxTestStore>
}

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL?.trim() || undefined

export const POSTGRES_SKIPPED =
  'PostgreSQL: SKIPPED because TEST_POSTGRES_URL is not set (start one with scripts/ci-postgres.sh)'

export async function temporarySqliteFile(): Promise<OutboxTestStore> {
  const folder = await mkdtemp(join(tmpdir(), 'newswire-outbox-'))
  return {
    url: `sqlite:${join(folder, 'newswire.db')}`,
    dispose: () => rm(folder, { recursive: true, force: true }),
  }
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A schema of its own in TEST_POSTGRES_URL's database, first on the search_path. */
export async function temporaryPostgresSchema(baseUrl: string): Promise<OutboxTestStore> {
  const schema = `newswire_outbox_${randomBytes(6).toString('hex')}`
  await withClient(baseUrl, (client) => client.query(`create schema ${schema}`))
  const url = new URL(baseUrl)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    url: url.toString(),
    dispose: async () => {
      await withClient(baseUrl, (client) => client.query(`drop schema ${schema} cascade`))
    },
  }
}

export const OUTBOX_ENGINES: readonly OutboxTestEngine[] = [
  { name: 'SQLite file', create: temporarySqliteFile },
  {
    name: 'SQLite :memory:',
    create: async () => ({ url: 'sqlite::memory:', dispose: async () => undefined }),
  },
  ...(TEST_POSTGRES_URL === undefined
    ? []
    : [{ name: 'PostgreSQL', create: () => temporaryPostgresSchema(TEST_POSTGRES_URL) }]),
]
