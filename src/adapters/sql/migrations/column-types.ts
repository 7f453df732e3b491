import { sql, type RawBuilder } from 'kysely'
import type { Engine } from '@/application/database-target'

/** The column types that differ between the engines, as each migration writes them. */
export interface ColumnTypes {
  readonly postgres: boolean
  /** An instant: timestamptz on PostgreSQL; ISO 8601 text on SQLite. */
  readonly instant: 'timestamptz' | 'text'
  /** A post's id, compared byte by byte on both engines, so that tie-breaks and cursors agree. */
  readonly idType: RawBuilder<unknown> | 'text'
}

export function columnTypesOf(engine: Engine): ColumnTypes {
  const postgres = engine === 'postgres'
  return {
    postgres,
    instant: postgres ? 'timestamptz' : 'text',
    idType: postgres ? sql`text collate "C"` : 'text',
  }
}
