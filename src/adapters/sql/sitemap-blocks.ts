import { sql, type Kysely } from 'kysely'
import type {
  NumberedSpan,
  SitemapPost,
  SitemapSource,
  SitemapSpan,
} from '@/application/ports/sitemap-source.port'
import { SITEMAP_BLOCK_POSTS } from '@/adapters/sql/migrations/0014-sitemap-blocks'
import { toIsoInstant, type NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'

type Db = Kysely<NewsWireSchema>

interface SpanRow {
  live: number | string | null
  changes: number | string | null
  changed_at: Date | string | null
}

/**
 * The sitemap's reads: sitemap_block, which triggers on news keep in each write's transaction
 * (migration 0014), and the live posts of a range of search_seq through its unique index.
 */
export class SqlSitemapSource implements SitemapSource {
  readonly blockPosts = SITEMAP_BLOCK_POSTS

  constructor(
    private readonly db: Db,
    private readonly onError?: StorageErrorListener,
  ) {}

  spans(width: number): Promise<NumberedSpan[]> {
    return guardStorage(async () => {
      // Inlined: SQLite would divide by a bound number as a real one.
      const divisor = sql.raw(String(Math.max(1, Math.trunc(width))))
      const { rows } = await sql<SpanRow & { index: number | string }>`
        select block / ${divisor} as ${sql.id('index')}, sum(live) as live,
               sum(changes) as changes, max(changed_at) as changed_at
        from sitemap_block group by 1 order by 1
      `.execute(this.db)
      return rows.flatMap((row) => {
        const span = spanOf(row)
        return span === undefined ? [] : [{ index: Number(row.index), ...span }]
      })
    }, this.onError)
  }

  span(from: number, to: number): Promise<SitemapSpan | undefined> {
    return guardStorage(async () => {
      const row = await this.db
        .selectFrom('sitemap_block')
        .select([
          sql<number | string | null>`sum(live)`.as('live'),
          sql<number | string | null>`sum(changes)`.as('changes'),
          sql<Date | string | null>`max(changed_at)`.as('changed_at'),
        ])
        .where('block', '>=', from)
        .where('block', '<=', to)
        .executeTakeFirst()
      return row === undefined ? undefined : spanOf(row)
    }, this.onError)
  }

  posts(from: number, to: number): Promise<SitemapPost[]> {
    return guardStorage(async () => {
      const rows = await this.db
        .selectFrom('news')
        .select(['id', 'updated_at'])
        .where('search_seq', '>=', from)
        .where('search_seq', '<', to)
        .where('deleted_at', 'is', null)
        .orderBy('search_seq', 'desc')
        .execute()
      return rows.map((row) => ({ id: row.id, updatedAt: toIsoInstant(row.updated_at) }))
    }, this.onError)
  }
}

/** A span's sums; undefined when it has no block (sums over no rows are null). */
function spanOf(row: SpanRow): SitemapSpan | undefined {
  if (row.changes === null || row.changed_at === null) return undefined
  return {
    live: Number(row.live),
    changes: Number(row.changes),
    changedAt: toIsoInstant(row.changed_at),
  }
}
