import SQLite from 'better-sqlite3'
import { encodeCursor } from '@/adapters/shared/keyset-cursor'
import { openDatabase } from '@/adapters/sql/database'
import { SQLITE_SEARCH_TABLE, wordsText } from '@/adapters/sql/news-search.sql'
import { searchDocumentOf } from '@/domain/rules/search-query.rules'
import { newsText } from './news-text'

export interface Seeded {
  /** The id of the newest post. */
  readonly newestId: string
  /** The `cursor` of the second page: the same query as a deep page, near the top. */
  readonly secondPageCursor: string
  /** The `cursor` of a page that starts 90% of the way down the list. */
  readonly deepCursor: string
  /** The `cursor` of the page that follows the post seeded `index`-th (0 is the oldest). */
  cursorAfter(index: number): string
  /** The id of the post seeded `index`-th. */
  idAt(index: number): string
}

const WORDS = ['harbour', 'city', 'river', 'market', 'library', 'bridge', 'school', 'night']

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
 * the tables in one transaction (a million posts take seconds; through the API, hours). The
 * schema comes from the app's own migrations. Posts are one second apart, newest last, and
 * numbered in that order for search.
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
    const post = db.prepare(
      'insert into news (id, title, body, author, created_at, updated_at, revision, deleted_at, search_seq) values (?, ?, ?, ?, ?, ?, 1, null, ?)',
    )
    const indexed = db.prepare(
      `insert into ${SQLITE_SEARCH_TABLE} (rowid, title, rest) values (?, ?, ?)`,
    )
    const revision = db.prepare(
      "insert into news_revision (news_id, revision, title, body, author, action, at, restored_from) values (?, 1, ?, ?, ?, 'create', ?, null)",
    )
    const start = Date.UTC(2020, 0, 1)
    const instantOf = (index: number) => new Date(start + index * 1000).toISOString()
    const idOf = (index: number) => `bench-${index.toString(36).padStart(8, '0')}`
    db.transaction(() => {
      for (let index = 0; index < count; index += 1) {
        const id = idOf(index)
        const at = instantOf(index)
        const { title, body } = searchable ? newsText(index) : repeatedText(index)
        const author = `Author ${index % 97}`
        post.run(id, title, body, author, at, at, index + 1)
        revision.run(id, title, body, author, at)
        if (searchable) {
          const document = searchDocumentOf({ title, body, author })
          indexed.run(index + 1, wordsText(document.title), wordsText(document.rest))
        }
      }
    })()
    // The list is newest first: 90% of the way down is the post made at 10% of the way up.
    const deep = Math.floor(count * 0.1)
    const second = Math.max(count - 24, 0)
    return {
      newestId: idOf(count - 1),
      secondPageCursor: encodeCursor({ at: instantOf(second), id: idOf(second) }),
      deepCursor: encodeCursor({ at: instantOf(deep), id: idOf(deep) }),
      cursorAfter: (index) => encodeCursor({ at: instantOf(index), id: idOf(index) }),
      idAt: idOf,
    }
  } finally {
    db.close()
  }
}

/** A few words over and over, as the list and by-id benchmarks have always read. */
function repeatedText(index: number): { readonly title: string; readonly body: string } {
  return {
    title: `Post ${index}: ${WORDS[index % WORDS.length]} news`,
    body: `${WORDS[(index * 7) % WORDS.length]} `.repeat(20 + (index % 40)).trim(),
  }
}
