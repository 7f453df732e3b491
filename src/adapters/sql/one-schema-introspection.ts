import { sql, type DatabaseIntrospector, type Kysely, type TableMetadata } from 'kysely'

/**
 * The same database, whose introspection sees the tables of one PostgreSQL schema only.
 *
 * Kysely's migrator checks that its bookkeeping tables exist by reading every table of every
 * schema, with their columns, even when told the schema they live in (kysely#1707). In a database
 * of many schemas that read grows with all of them, and it fails outright when another schema's
 * tables are dropped while it runs ("could not open relation"): two NewsWires in two schemas of
 * one database, or tests that each take a schema, could then not start side by side. The migrator
 * uses only the tables' names and schemas, which one indexed read of the catalogue gives.
 */
export function seeingOneSchema<DB>(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection: DatabaseIntrospector = {
    // The migrator asks whether the schema exists; it is the connection's current schema.
    getSchemas: async () => [{ name: schema }],
    getTables: () => tablesOf(db, schema),
    getMetadata: async () => ({ tables: await tablesOf(db, schema) }),
  }
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection
      const value: unknown = Reflect.get(target, property, target)
      // Kysely keeps its state in private fields, which only the instance itself may read.
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

async function tablesOf<DB>(db: Kysely<DB>, schema: string): Promise<TableMetadata[]> {
  const { rows } = await sql<{ name: string; view: boolean }>`
    select c.relname as name, c.relkind in ('v', 'm') as view
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm')`.execute(db)
  return rows.map(({ name, view }) => ({ name, schema, isView: view, columns: [] }))
}
