import { Client } from 'pg'

/** A schema of its own for one benchmark run, in a PostgreSQL database. */
export interface ThrowawaySchema {
  readonly schema: string
  /** The database's URL with the schema first on the search path: the server's DATABASE_URL. */
  readonly url: string
  /** A connection to the database for the run's own statements, closed by `drop`. */
  readonly admin: Client
  drop(): Promise<void>
}

/** Creates the schema `prefix`_PID in the database at `url`; `drop` removes it and all in it. */
export async function throwawaySchema(url: string, prefix: string): Promise<ThrowawaySchema> {
  const schema = `${prefix}_${process.pid}`
  const admin = new Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const scoped = new URL(url)
  scoped.searchParams.set('options', `-c search_path=${schema}`)
  return {
    schema,
    url: scoped.toString(),
    admin,
    async drop(): Promise<void> {
      await admin.query(`drop schema if exists ${schema} cascade`)
      await admin.end()
    },
  }
}

/**
 * Runs a benchmark on one engine: SQLite (a file `sqliteFile` in `work`) unless `postgres`, and
 * then PostgreSQL in a throwaway schema of BENCH_POSTGRES_URL or TEST_POSTGRES_URL, dropped after.
 */
export async function onChosenEngine(
  options: {
    readonly postgres: boolean
    readonly sqliteFile: string
    readonly schemaPrefix: string
  },
  run: (engine: string, databaseUrl: string) => Promise<void>,
): Promise<void> {
  if (!options.postgres) return run('SQLite', `sqlite:${options.sqliteFile}`)
  const url = (process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL)?.trim()
  if (!url) throw new Error('--postgres needs BENCH_POSTGRES_URL or TEST_POSTGRES_URL')
  const schema = await throwawaySchema(url, options.schemaPrefix)
  try {
    await run('PostgreSQL', schema.url)
  } finally {
    await schema.drop()
  }
}
