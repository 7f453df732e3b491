import { randomBytes } from 'node:crypto'
import { Client } from 'pg'
import { openDatabase } from '@/adapters/sql/database'
import { idOf, instantOf, searchableText, seededAt, type Seeded } from './seeded-posts'

/** A throwaway schema of a PostgreSQL database, seeded for a benchmark. */
export interface PostgresBenchSchema extends Seeded {
  /** The DATABASE_URL that puts the schema first on the search path. */
  readonly url: string
  drop(): Promise<void>
}

/** Posts per statement, each its own transaction. */
const BATCH = 5_000

/**
 * Makes a schema in the database `baseUrl` names, migrates it as the app does, and fills it
 * with `count` searchable posts and their first revisions, a multi-row statement (and so a
 * transaction) per 5,000: the text of scripts/bench/news-text.ts (seeded-posts.ts), indexed as
 * the store indexes each write (the same words, through array_to_tsvector), one second apart
 * and numbered for search in that order, as seedSqlite does for SQLite. The schema's triggers
 * keep the sitemap's counts as the rows go in. `onProgress` hears the posts written so far.
 */
export async function seedPostgres(
  baseUrl: string,
  count: number,
  onProgress?: (written: number) => void,
): Promise<PostgresBenchSchema> {
  const schema = `newswire_bench_${randomBytes(6).toString('hex')}`
  const admin = new Client({ connectionString: baseUrl })
  await admin.connect()
  const drop = async () => {
    await admin.query(`drop schema if exists ${schema} cascade`)
    await admin.end()
  }
  try {
    await admin.query(`create schema ${schema}`)
    const scoped = new URL(baseUrl)
    scoped.searchParams.set('options', `-c search_path=${schema}`)
    const migrated = await openDatabase(scoped.toString())
    await migrated.close()
    // A batch's commit need not wait for the disk: a crash loses a benchmark's seed, no more.
    await admin.query('set synchronous_commit = off')
    for (let first = 0; first < count; first += BATCH) {
      await insertBatch(admin, schema, first, Math.min(count, first + BATCH))
      onProgress?.(Math.min(count, first + BATCH))
    }
    await admin.query(`vacuum analyze ${schema}.news`)
    await admin.query(`analyze ${schema}.news_revision`)
    return { url: scoped.toString(), drop, ...seededAt(count) }
  } catch (error) {
    await drop()
    throw error
  }
}

async function insertBatch(admin: Client, schema: string, from: number, to: number) {
  const columns = {
    id: [] as string[],
    title: [] as string[],
    body: [] as string[],
    author: [] as string[],
    at: [] as string[],
    words: [] as string[],
    titleWords: [] as string[],
  }
  for (let index = from; index < to; index += 1) {
    const text = searchableText(index)
    columns.id.push(idOf(index))
    columns.title.push(text.title)
    columns.body.push(text.body)
    columns.author.push(text.author)
    columns.at.push(instantOf(index))
    columns.words.push(text.allWords)
    columns.titleWords.push(text.titleWords)
  }
  // In index order, so that the identity numbers the posts as they were published; each post's
  // first revision in the same statement.
  await admin.query(
    `with posts as (
       insert into ${schema}.news
         (id, title, body, author, created_at, updated_at, revision, deleted_at, search_vector, title_vector)
       select id, title, body, author, at::timestamptz, at::timestamptz, 1, null,
              array_to_tsvector(array_remove(string_to_array(words, ' '), '')),
              array_to_tsvector(array_remove(string_to_array(title_words, ' '), ''))
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         with ordinality as batch (id, title, body, author, at, words, title_words, position)
       order by position
       returning id, title, body, author, created_at
     )
     insert into ${schema}.news_revision (news_id, revision, title, body, author, action, at, restored_from)
     select id, 1, title, body, author, 'create', created_at, null from posts`,
    Object.values(columns),
  )
}
