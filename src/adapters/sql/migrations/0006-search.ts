import { sql, type Kysely, type Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'
import { NEWS_SEARCH_SEQ_INDEX } from '@/adapters/sql/migrations/index-names'
import { addPostgresSearch, addSqliteSearch } from '@/adapters/sql/migrations/search-index'

export function migrationSearch({ postgres }: ColumnTypes): Migration {
  return {
    // Full-text search (adapters/sql/news-search.sql.ts). Posts get their place in publication
    // order, the posts already there numbered by creation, and every one is indexed here.
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`alter table news add column search_seq ${sql.raw(postgres ? 'bigint' : 'integer')}`.execute(
        db,
      )
      await sql`
        update news set search_seq = ranked.seq
        from (select id, row_number() over (order by created_at, id) as seq from news) as ranked
        where news.id = ranked.id
      `.execute(db)
      await db.schema
        .createIndex(NEWS_SEARCH_SEQ_INDEX)
        .on('news')
        .column('search_seq')
        .unique()
        .execute()
      if (postgres) await addPostgresSearch(db)
      else await addSqliteSearch(db)
    },
  }
}
