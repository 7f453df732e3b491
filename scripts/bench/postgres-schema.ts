import { Client } from 'pg'

/** A schema of its own for one benchmark run in a PostgreSQL database. */
export interface BenchSchema {
  /** Its name, to qualify tables in `admin`'s statements. */
  readonly name: string
  /** The database's URL with the schema first on the search_path: the server's DATABASE_URL. */
  readonly url: string
  /** A connection to the database, for seeding straight into the schema's tables. */
  readonly admin: Client
  /** Drops the schema with everything in it and closes `admin`. */
  drop(): Promise<void>
}

/** Creates a fresh schema `prefix_PID` in the PostgreSQL database at `url`. */
export async function createBenchSchema(url: string, prefix: string): Promise<BenchSchema> {
  const name = `${prefix}_${process.pid}`
  const admin = new Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${name}`)
  const scoped = new URL(url)
  scoped.searchParams.set('options', `-c search_path=${name}`)
  return {
    name,
    url: scoped.toString(),
    admin,
    async drop() {
      await admin.query(`drop schema if exists ${name} cascade`)
      await admin.end()
    },
  }
}
