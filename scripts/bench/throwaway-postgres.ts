import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Client } from 'pg'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

/** A PostgreSQL cluster of its own (scripts/ci-postgres.sh), free to restart or stop. */
export interface ThrowawayPostgres {
  /** Its DATABASE_URL. */
  readonly url: string
  /** Stops it (fast: every backend is terminated) and starts it again; resolves once it is up. */
  restart(): Promise<void>
  /** Stops it and deletes its data. */
  stop(): Promise<void>
}

/**
 * Starts a throwaway cluster on a free port with scripts/ci-postgres.sh, for what must not be
 * done to a cluster that others share: restarting it, or terminating every backend. (The script
 * installs PostgreSQL when it is missing; see postgresInstalled.)
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const port = await freePort()
  const script = (command: string) =>
    run('scripts/ci-postgres.sh', [command], {
      cwd: ROOT,
      env: { ...process.env, NEWSWIRE_PG_PORT: String(port) },
    })
  const { stdout } = await script('start')
  const url = stdout.trim().split('\n').pop() ?? ''
  return {
    url,
    restart: async () => {
      await script('restart')
    },
    stop: async () => {
      await script('stop')
    },
  }
}

/** Whether PostgreSQL's server binaries are installed where scripts/ci-postgres.sh looks. */
export function postgresInstalled(): boolean {
  try {
    return readdirSync('/usr/lib/postgresql').length > 0
  } catch {
    return false
  }
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Terminates the backends of the connections named `applicationName` (pg_terminate_backend,
 * as an operator or a failover does), and no other: a shared cluster serves other tests too.
 * Answers how many it terminated.
 */
export async function terminateBackends(
  adminUrl: string,
  applicationName: string,
): Promise<number> {
  const client = new Client({ connectionString: adminUrl, application_name: 'newswire_admin' })
  await client.connect()
  try {
    const { rows } = await client.query<{ terminated: string }>(
      `select count(*) filter (where pg_terminate_backend(pid)) as terminated
         from pg_stat_activity
        where application_name = $1 and pid <> pg_backend_pid()`,
      [applicationName],
    )
    return Number(rows[0]?.terminated ?? 0)
  } finally {
    await client.end()
  }
}

/** `url` with the connections' application_name set, so that their backends can be found. */
export function withApplicationName(url: string, applicationName: string): string {
  const named = new URL(url)
  named.searchParams.set('application_name', applicationName)
  return named.toString()
}

/** A schema of its own in a shared database. */
export interface ThrowawaySchema {
  /** A DATABASE_URL whose connections work in it (it is first on their search_path). */
  readonly url: string
  drop(): Promise<void>
}

/** A fresh schema, named `prefix` and a random suffix, in the database at `adminUrl`. */
export async function throwawaySchema(adminUrl: string, prefix: string): Promise<ThrowawaySchema> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`
  const admin = async (statement: string) => {
    const client = new Client({ connectionString: adminUrl })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`create schema ${schema}`)
  const url = new URL(adminUrl)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return { url: url.toString(), drop: () => admin(`drop schema if exists ${schema} cascade`) }
}
