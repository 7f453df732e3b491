import { validationFailed } from '@/domain/domain-error'
import type { NewsDraft } from '@/domain/news-item.entity'
import { fail, ok, type Result } from '@/domain/result'
import {
  checkField,
  mustBeAtMost,
  noControlCharacters,
  type FieldRule,
} from '@/domain/rules/field-rule'
import { wellFormed } from '@/domain/rules/normalise'
import { LATIN_FOLDS } from '@/domain/rules/latin-folds'
import { SEARCH_FIELD } from '@/domain/rules/search-field'

/**
 * The rules of full-text search, the same for every store: what a query may be, which words it
 * and a post are made of, and how a match ranks. Words are folded here, in the domain, on both
 * sides (the query and each post), rather than by each engine: SQLite's tokenizer, PostgreSQL's
 * parser and the memory store would each fold a little differently, and PostgreSQL's `unaccent`
 * is an extension an operator may not be allowed to install. So 'CAFE' finds 'café' on every
 * engine, and every engine finds the same posts. The SQL stores keep the folded words: a change
 * to how words are folded needs a migration that indexes every post again.
 */

/**
 * A query's bounds: its length as a reader counts it, its distinct words, and a word's length.
 * The words bound what a search costs: each one adds its list of posts to every ranking tier's
 * read of the index, and a common word's list holds most posts. Over 100,000 posts on SQLite,
 * where a search holds the server's one thread, the costliest queries of common words took about
 * 8 ms of CPU a word: 79 ms at 10 words, 30 ms at 6.
 */
export const SEARCH_LIMITS = { length: 200, terms: 6, termLength: 64 } as const

export { SEARCH_FIELD }

/** A one-line field like a title: a query with a control character is refused, not guessed at. */
export const SEARCH_RULE: FieldRule = {
  required: 'Type a word to search for',
  maxLength: { limit: SEARCH_LIMITS.length, message: mustBeAtMost(SEARCH_LIMITS.length) },
  characters: { lines: 'one', message: noControlCharacters('a search') },
}

export const TOO_MANY_TERMS = `Search for at most ${SEARCH_LIMITS.terms} different words`

/** A query the rules accept. */
export interface SearchQuery {
  /** As typed, well-formed and trimmed: what a link to the results carries. */
  readonly text: string
  /**
   * Its distinct words, folded, in the order typed; a post matches when it holds every one. Empty
   * when the text holds no letter or digit (only punctuation, say): then nothing matches.
   */
  readonly terms: readonly string[]
}

/** The query, or ValidationFailed with the message that refuses it, keyed by SEARCH_FIELD. */
export function parseSearchQuery(raw: string): Result<SearchQuery> {
  const text = wellFormed(raw).trim()
  const message = checkField(SEARCH_RULE, text)
  if (message !== undefined) return refused(message)
  const terms = termsOf(text)
  if (terms.length > SEARCH_LIMITS.terms) return refused(TOO_MANY_TERMS)
  return ok({ text, terms })
}

function refused(message: string): Result<SearchQuery> {
  return fail(validationFailed({ [SEARCH_FIELD]: message }))
}

const MARKS = /\p{M}/gu
const NOT_WORD = /[^\p{L}\p{N}]+/u

/**
 * Text with compatibility forms made plain (ﬁ is fi, ² is 2, full-width letters are letters),
 * case folded (through upper case, so that ß meets SS and ς meets σ) and accents dropped (é is e).
 */
export function foldCaseAndMarks(text: string): string {
  return text
    .normalize('NFKD')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKD')
    .replace(MARKS, '')
    .normalize('NFC')
}

const ASCII = /^\p{ASCII}*$/u

const LATIN_LETTER = new RegExp(`[${Object.keys(LATIN_FOLDS).join('')}]`, 'gu')

/**
 * Text as search compares it: folded by case and marks, then the Latin letters that have no
 * decomposition made plain as Lucene's ASCII folding does (ø is o, ł is l, æ is ae, þ is th).
 */
export function foldForSearch(text: string): string {
  // Most words are ASCII, which has no compatibility forms, marks or special cases: its folding
  // is its lower case, without the four passes over the text that the rest needs.
  if (ASCII.test(text)) return text.toLowerCase()
  return foldCaseAndMarks(text).replace(LATIN_LETTER, (letter) => LATIN_FOLDS[letter] ?? letter)
}

/**
 * The distinct words of a text, folded, in order of appearance: runs of letters and digits,
 * everything else separating them, each cut to SEARCH_LIMITS.termLength code points (the same
 * cut on both sides, so a long word still finds itself).
 */
export function termsOf(text: string): string[] {
  // One ASCII word, as the search page folds each word of each result: its lower case, cut.
  if (ASCII_WORD.test(text)) return [cutTerm(text.toLowerCase())]
  const terms = new Set<string>()
  for (const word of foldForSearch(text).split(NOT_WORD)) {
    if (word.length === 0) continue
    terms.add(cutTerm(word))
  }
  return [...terms]
}

const ASCII_WORD = /^[A-Za-z0-9]+$/

/** A folded word cut to SEARCH_LIMITS.termLength code points. */
function cutTerm(word: string): string {
  // A word has no more code points than UTF-16 units: only a longer one needs counting.
  return word.length > SEARCH_LIMITS.termLength
    ? [...word].slice(0, SEARCH_LIMITS.termLength).join('')
    : word
}

/** What a store indexes of a post: the words of its title apart, to rank title matches first. */
export interface SearchDocument {
  readonly title: readonly string[]
  /** The words of the author and the body. */
  readonly rest: readonly string[]
}

export function searchDocumentOf(post: NewsDraft): SearchDocument {
  return { title: termsOf(post.title), rest: termsOf(`${post.author}\n${post.body}`) }
}

/**
 * How well a matching post ranks: 2 when its title holds every word of the query, 1 when it
 * holds some, 0 when the words are only in its author and body. Higher ranks first; within a
 * rank the newest post (the latest published) comes first.
 */
export type SearchTier = 0 | 1 | 2

/** The tiers a query's matches can fall in, best first: a one-word query has no 'some'. */
export function searchTiers(terms: readonly string[]): readonly SearchTier[] {
  return terms.length > 1 ? [2, 1, 0] : [2, 0]
}

/** The tier of a post for a query, or undefined when the post does not hold every word. */
export function searchTierOf(
  document: SearchDocument,
  terms: readonly string[],
): SearchTier | undefined {
  const title = new Set(document.title)
  const rest = new Set(document.rest)
  if (terms.length === 0 || !terms.every((term) => title.has(term) || rest.has(term))) {
    return undefined
  }
  const inTitle = terms.filter((term) => title.has(term)).length
  return inTitle === terms.length ? 2 : inTitle > 0 ? 1 : 0
}
