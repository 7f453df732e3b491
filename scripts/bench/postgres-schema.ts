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
