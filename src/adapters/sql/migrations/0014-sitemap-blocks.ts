import { sql, type Kysely, type Migration } from 'kysely'
import type { ColumnTypes } from '@/adapters/sql/migrations/column-types'

/**
 * How many search_seq numbers one row of sitemap_block covers (its block is search_seq / this).
 * The triggers are written with it, so it never changes.
 */
export const SITEMAP_BLOCK_POSTS = 1000

const BLOCK = sql.raw(String(SITEMAP_BLOCK_POSTS))

export function migrationSitemapBlocks({ postgres, instant }: ColumnTypes): Migration {
  return {
    // The sitemap's files are fixed ranges of search_seq (adapters/sql/sitemap-blocks.ts). Each
    // block of SITEMAP_BLOCK_POSTS numbers keeps how many of its posts are live, how often a
    // post in it changed, and when it last did, kept in each write's transaction by triggers on
    // news, so that every way of writing a post (the store, the purge, moderation, a load) keeps
    // it right. The sitemap then knows which files changed, and their dates, without reading the
    // posts. (Counts, not a walk: a block's row is upserted, never scanned.)
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sitemap_block')
        .addColumn('block', postgres ? 'bigint' : 'integer', (column) =>
          column.primaryKey().notNull(),
        )
        .addColumn('live', postgres ? 'bigint' : 'integer', (column) => column.notNull())
        .addColumn('changes', postgres ? 'bigint' : 'integer', (column) => column.notNull())
        .addColumn('changed_at', instant, (column) => column.notNull())
        .execute()
      await sql`
        insert into sitemap_block (block, live, changes, changed_at)
        select search_seq / ${BLOCK},
               sum(case when deleted_at is null then 1 else 0 end),
               count(*),
               max(coalesce(deleted_at, updated_at))
        from news where search_seq is not null
        group by search_seq / ${BLOCK}
      `.execute(db)
      if (postgres) await addPostgresTrigger(db)
      else await addSqliteTriggers(db)
    },
  }
}

// A post's change counts at the later of its last edit and its deletion: a file changes then.
async function addPostgresTrigger(db: Kysely<unknown>): Promise<void> {
  // The search path is the migration's, so that a session with another one (a bulk load into
  // this schema by name) still keeps this schema's blocks.
  await sql`
    create or replace function news_sitemap_block() returns trigger language plpgsql
    set search_path from current as $$
    begin
      if tg_op <> 'INSERT' and old.search_seq is not null then
        update sitemap_block
           set live = live - (old.deleted_at is null)::int, changes = changes + 1
         where block = old.search_seq / ${BLOCK};
      end if;
      if tg_op <> 'DELETE' and new.search_seq is not null then
        insert into sitemap_block as kept (block, live, changes, changed_at)
        values (new.search_seq / ${BLOCK}, (new.deleted_at is null)::int, 1,
                coalesce(new.deleted_at, new.updated_at))
        on conflict (block) do update
           set live = kept.live + excluded.live, changes = kept.changes + 1,
               changed_at = greatest(kept.changed_at, excluded.changed_at);
      end if;
      return null;
    end
    $$
  `.execute(db)
  await sql`
    create trigger news_sitemap_block
    after insert or delete or update of updated_at, deleted_at, search_seq on news
    for each row execute function news_sitemap_block()
  `.execute(db)
}

async function addSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const upsertNew = sql`
    insert into sitemap_block (block, live, changes, changed_at)
    select new.search_seq / ${BLOCK}, new.deleted_at is null, 1,
           coalesce(new.deleted_at, new.updated_at)
    where new.search_seq is not null
    on conflict (block) do update
       set live = live + excluded.live, changes = changes + 1,
           changed_at = max(changed_at, excluded.changed_at);
  `
  const retractOld = sql`
    update sitemap_block set live = live - (old.deleted_at is null), changes = changes + 1
     where block = old.search_seq / ${BLOCK};
  `
  await sql`
    create trigger news_sitemap_insert after insert on news begin ${upsertNew} end
  `.execute(db)
  await sql`
    create trigger news_sitemap_update after update of updated_at, deleted_at, search_seq on news
    begin ${retractOld} ${upsertNew} end
  `.execute(db)
  await sql`
    create trigger news_sitemap_delete after delete on news begin ${retractOld} end
  `.execute(db)
}
