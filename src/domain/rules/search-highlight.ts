import { excerptOfFlat, flatText } from '@/domain/rules/excerpt'
import { termsOf } from '@/domain/rules/search-query.rules'

/**
 * Which words of a text a search matched, for the results to mark them. A word is marked when
 * it folds (search-query.rules.ts) to one of the query's words, so that what is marked is what
 * the stores matched: 'CAFE' marks 'café', and a whole word only, never part of one. The text
 * is cut into parts, never changed: joined again, the parts are the text, character for character.
 */

/** A run of a text: a word the query matched, or the text between two. */
export interface TextPart {
  readonly text: string
  readonly matched: boolean
}

/**
 * A word as a reader sees it: letters and digits with their accents. The accents are part of
 * it here (written as combining marks, they follow the letter), where folding drops them.
 */
const WORD = /[\p{L}\p{N}\p{M}]+/gu

/** The text in parts, the words that fold to one of `terms` (a query's words) marked. */
export function highlightParts(text: string, terms: readonly string[]): TextPart[] {
  if (text === '') return []
  const wanted = new Set(terms)
  const parts: TextPart[] = []
  let end = 0
  for (const { start, word } of matchedWords(text, wanted)) {
    if (start > end) parts.push({ text: text.slice(end, start), matched: false })
    parts.push({ text: word, matched: true })
    end = start + word.length
  }
  if (end < text.length) parts.push({ text: text.slice(end), matched: false })
  return parts
}

function* matchedWords(
  text: string,
  wanted: ReadonlySet<string>,
): Generator<{ readonly start: number; readonly word: string }> {
  if (wanted.size === 0) return
  for (const match of text.matchAll(WORD)) {
    // Folded, one word can give two (½ is 1 and 2): it is marked when either was asked for.
    if (termsOf(match[0]).some((term) => wanted.has(term))) {
      yield { start: match.index, word: match[0] }
    }
  }
}

/** How much of the text before a match the excerpt keeps, in characters (about a few words). */
const LEAD = 40

/**
 * The excerpt a search result shows of a post's body: its start, as on the list, unless the first
 * word the query matched lies past that start; then the part around that word, after an
 * ellipsis, so that the reader sees why the post was found.
 */
export function excerptAround(text: string, terms: readonly string[], maxCharacters = 160): string {
  // The text is made flat once: the excerpt, the search for the word and the cut all read it.
  const flat = flatText(text)
  const plain = excerptOfFlat(flat, maxCharacters)
  const [first] = matchedWords(flat, new Set(terms))
  // A cut excerpt is the start of the text, an ellipsis after it.
  const shown = plain === flat ? flat.length : plain.length - 1
  if (first === undefined || first.start + first.word.length <= shown) return plain
  const space = flat.lastIndexOf(' ', first.start - LEAD)
  const from = space < 0 ? first.start : space + 1
  // From the start of a word, to the end of the flat text: flat already.
  return `…${excerptOfFlat(flat.slice(from), maxCharacters - 1)}`
}
