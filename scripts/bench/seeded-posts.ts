import { encodeCursor } from '@/adapters/shared/keyset-cursor'
import { indexedWords, wordsText } from '@/adapters/sql/news-search.sql'
import { searchDocumentOf } from '@/domain/rules/search-query.rules'
import { newsText } from './news-text'

/*
 * The posts every seeder writes (seed-posts.ts for SQLite, seed-postgres.ts for PostgreSQL): the
 * index-th post (0 the oldest) has the same id, date and text on both engines.
 */

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

const START = Date.UTC(2020, 0, 1)

/** When the index-th post was published: one second after the one before. */
export function instantOf(index: number): string {
  return new Date(START + index * 1000).toISOString()
}

export function idOf(index: number): string {
  return `bench-${index.toString(36).padStart(8, '0')}`
}

export function authorOf(index: number): string {
  return `Author ${index % 97}`
}

/** Where the `count` posts seeded stand, for the requests of a benchmark. */
export function seededAt(count: number): Seeded {
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
}

/** A post's text and the words search indexes of it, as each engine's index holds them. */
export interface SearchableText {
  readonly title: string
  readonly body: string
  readonly author: string
  /** The title's words (SQLite's `title` column, PostgreSQL's title_vector). */
  readonly titleWords: string
  /** The author's and the body's (SQLite's `rest` column). */
  readonly restWords: string
  /** Every word once (PostgreSQL's search_vector). */
  readonly allWords: string
}

/**
 * Past this many posts the text repeats (post i has the text of post i mod this): making and
 * folding text costs about 60 µs a post, which would be most of seeding ten million; each word
 * still appears in the same share of posts, so searches match in the same proportions.
 */
const TEXT_CYCLE = 100_000
const texts = new Map<number, SearchableText>()

/** The varied text of the index-th post (news-text.ts), with its words as the store folds them. */
export function searchableText(index: number): SearchableText {
  const key = index % TEXT_CYCLE
  const kept = texts.get(key)
  if (kept !== undefined) return kept
  const { title, body } = newsText(key)
  const author = authorOf(key)
  const document = searchDocumentOf({ title, body, author })
  const text = {
    title,
    body,
    author,
    titleWords: wordsText(document.title),
    restWords: wordsText(document.rest),
    allWords: wordsText(indexedWords(document).all),
  }
  texts.set(key, text)
  return text
}
