import { randomBytes } from 'node:crypto'
import { Client } from 'pg'
import { openDatabase } from '@/adapters/sql/database'
import { indexedWords, wordsText } from '@/adapters/sql/news-search.sql'
import { searchDocumentOf } from '@/domain/rules/search-query.rules'
import { newsText } from './news-text'

/** A throwaway schema of a PostgreSQL database, seeded for a benchmark. */
export interface PostgresBenchSchema {
  /** The DATABASE_URL that puts the schema first on the search path. */
  readonly url: string
  drop(): Promise<void>
}

const BATCH = 2_000

/**
 * Makes a schema in the database `baseUrl` names, migrates it as the app does, and fills it
 * with `count` searchable posts: the text of scripts/bench/news-text.ts, indexed as the store
 * indexes each write (the same words, through array_to_tsvector), one second apart and numbered
 * for search in that order, as seedSqlite does for SQLite.
 */
export async function seedPostgres(baseUrl: string, count: number): Promise<PostgresBenchSchema> {
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
    for (let first = 0; first < count; first += BATCH) {
      await insertBatch(admin, schema, first, Math.min(count, first + BATCH))
    }
    await admin.query(
      `insert into ${schema}.news_revision (news_id, revision, title, body, author, action, at, restored_from)
       select id, 1, title, body, author, 'create', created_at, null from ${schema}.news`,
    )
    await admin.query(`analyze ${schema}.news`)
    return { url: scoped.toString(), drop }
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
    const { title, body } = newsText(index)
    const author = `Author ${index % 97}`
    const words = indexedWords(searchDocumentOf({ title, body, author }))
    columns.id.push(`bench-${index.toString(36).padStart(8, '0')}`)
    columns.title.push(title)
    columns.body.push(body)
    columns.author.push(author)
    columns.at.push(new Date(Date.UTC(2020, 0, 1) + index * 1000).toISOString())
    columns.words.push(wordsText(words.all))
    columns.titleWords.push(wordsText(words.title))
  }
  // In index order, so that the identity numbers the posts as they were published.
  await admin.query(
    `insert into ${schema}.news
       (id, title, body, author, created_at, updated_at, revision, deleted_at, search_vector, title_vector)
     select id, title, body, author, at::timestamptz, at::timestamptz, 1, null,
            array_to_tsvector(array_remove(string_to_array(words, ' '), '')),
            array_to_tsvector(array_remove(string_to_array(title_words, ' '), ''))
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
       with ordinality as batch (id, title, body, author, at, words, title_words, position)
     order by position`,
    Object.values(columns),
  )
}
