import SQLite from 'better-sqlite3'
import { openDatabase } from '@/adapters/sql/database'
import { SQLITE_SEARCH_TABLE } from '@/adapters/sql/news-search.sql'
import { authorOf, idOf, instantOf, searchableText, seededAt, type Seeded } from './seeded-posts'

export type { Seeded } from './seeded-posts'

const WORDS = ['harbour', 'city', 'river', 'market', 'library', 'bridge', 'school', 'night']

/** Posts per transaction: a commit per batch keeps the WAL (and memory) small at any size. */
const BATCH = 50_000

export interface SeedOptions {
  /**
   * Varied text (scripts/bench/news-text.ts), indexed for search as the store indexes each
   * write. Without it, posts repeat a few words and the search index stays empty, which the
   * list and by-id benchmarks do not read.
   */
  readonly searchable?: boolean
}

/**
 * Fills a new SQLite database with `count` posts, each with its first revision, straight into
 * the tables, a transaction per 50,000 (a million posts take seconds; through the API, hours).
 * The schema comes from the app's own migrations, and its triggers keep the sitemap's counts
 * as the rows go in. Posts are one second apart, newest last, and numbered in that order.
 */
export async function seedSqlite(
  path: string,
  count: number,
  { searchable = false }: SeedOptions = {},
): Promise<Seeded> {
  const migrated = await openDatabase(`sqlite:${path}`)
  await migrated.close()
  const db = new SQLite(path)
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = OFF')
    // The search index merges its segments as it grows: keep them in memory, not re-read.
    db.pragma('cache_size = -262144')
    const post = db.prepare(
      'insert into news (id, title, body, author, created_at, updated_at, revision, deleted_at, search_seq) values (?, ?, ?, ?, ?, ?, 1, null, ?)',
    )
    const indexed = db.prepare(
      `insert into ${SQLITE_SEARCH_TABLE} (rowid, title, rest) values (?, ?, ?)`,
    )
    const revision = db.prepare(
      "insert into news_revision (news_id, revision, title, body, author, action, at, restored_from) values (?, 1, ?, ?, ?, 'create', ?, null)",
    )
    const batch = db.transaction((from: number, to: number) => {
      for (let index = from; index < to; index += 1) {
        const id = idOf(index)
        const at = instantOf(index)
        const text = searchable ? searchableText(index) : repeatedText(index)
        post.run(id, text.title, text.body, text.author, at, at, index + 1)
        revision.run(id, text.title, text.body, text.author, at)
        if (searchable) {
          const { titleWords, restWords } = searchableText(index)
          indexed.run(index + 1, titleWords, restWords)
        }
      }
    })
    for (let from = 0; from < count; from += BATCH) batch(from, Math.min(count, from + BATCH))
    db.pragma('wal_checkpoint(TRUNCATE)')
    return seededAt(count)
  } finally {
    db.close()
  }
}

/** A few words over and over, as the list and by-id benchmarks have always read. */
function repeatedText(index: number): {
  readonly title: string
  readonly body: string
  readonly author: string
} {
  return {
    title: `Post ${index}: ${WORDS[index % WORDS.length]} news`,
    body: `${WORDS[(index * 7) % WORDS.length]} `.repeat(20 + (index % 40)).trim(),
    author: authorOf(index),
  }
}
