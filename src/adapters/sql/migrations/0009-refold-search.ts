import { sql, type Kysely, type Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'
import { SQLITE_SEARCH_TABLE } from '@/adapters/sql/news-search.sql'
import { indexPostgresPosts, indexSqlitePosts } from '@/adapters/sql/migrations/search-index'

export function migrationRefoldSearch({ postgres }: ColumnTypes): Migration {
  return {
    // Search folds the Latin letters that have no decomposition (ø is o, æ is ae): every post
    // is indexed again with the words the domain folds now.
    async up(db: Kysely<unknown>): Promise<void> {
      if (postgres) {
        await indexPostgresPosts(db)
        await sql`analyze news`.execute(db)
      } else {
        await sql`insert into ${sql.id(SQLITE_SEARCH_TABLE)} (${sql.id(SQLITE_SEARCH_TABLE)}) values ('delete-all')`.execute(
          db,
        )
        await indexSqlitePosts(db)
      }
    },
  }
}
