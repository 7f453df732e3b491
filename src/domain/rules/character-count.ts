/**
 * Characters as a reader counts them (grapheme clusters: an emoji of several code points is one),
 * in time linear in the text. Intl.Segmenter alone is not: on Node 20 each step of its walk costs
 * time in proportion to the whole text, so 16,000 characters took 98 ms, and a visitor could make
 * the server count long texts just to be refused.
 */

/**
 * The most UTF-16 code units one character of honest text takes, with room to spare: the longest
 * emoji sequences take 15 (a kiss with two skin tones, 👩🏻‍❤️‍💋‍👨🏼), England's flag 14 and a
 * family of four 11. A text longer than its limit times this cannot keep the limit, so it is
 * refused by its length alone, before any counting; nothing a person types is refused by it.
 */
export const MAX_UNITS_PER_CHARACTER = 16

/** The code units after which a text is cut into pieces for the segmenter, where it can be. */
export const PIECE_UNITS = 256

const graphemes =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl
    ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    : undefined

/**
 * Whether a character is one between which and its like a grapheme boundary always falls: none
 * of these extends, joins or prefixes another (no mark, joiner, prepended sign, line break,
 * regional indicator, Hangul jamo or Indic consonant), so a text cut between two of them counts
 * as it would whole. Printable ASCII, Latin, Greek, Cyrillic, Hebrew and Arabic letters, general
 * punctuation, kana, CJK ideographs and Hangul syllables: the run of most texts.
 */
function isPlain(code: number): boolean {
  return (
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa0 && code <= 0x2ff) ||
    (code >= 0x370 && code <= 0x482) ||
    (code >= 0x48a && code <= 0x52f) ||
    (code >= 0x5d0 && code <= 0x5ea) ||
    (code >= 0x621 && code <= 0x63a) ||
    (code >= 0x641 && code <= 0x64a) ||
    (code >= 0x2010 && code <= 0x2027) ||
    (code >= 0x3041 && code <= 0x3096) ||
    (code >= 0x30a1 && code <= 0x30fa) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7a3)
  )
}

/**
 * The text in pieces of about PIECE_UNITS code units, each cut between two plain characters (a
 * sure boundary). A run with no such place stays in one piece, however long.
 */
function* pieces(text: string): Generator<string> {
  let start = 0
  let at = PIECE_UNITS
  while (at < text.length) {
    if (isPlain(text.charCodeAt(at - 1)) && isPlain(text.charCodeAt(at))) {
      yield text.slice(start, at)
      start = at
      at += PIECE_UNITS
    } else {
      at += 1
    }
  }
  yield text.slice(start)
}

/**
 * Counts what a reader sees as characters, stopping once the count passes `stopAfter` (then it
 * answers stopAfter + 1): a text refused for its length is not counted to its end.
 */
export function characterCount(text: string, stopAfter = Number.POSITIVE_INFINITY): number {
  let count = 0
  if (graphemes === undefined) {
    for (const _ of text) if (++count > stopAfter) break
    return count
  }
  for (const piece of pieces(text)) {
    for (const _ of graphemes.segment(piece)) if (++count > stopAfter) return count
  }
  return count
}

/**
 * Whether `text` holds more than `limit` characters. The length in code units decides most texts
 * at once: no more units than the limit is within it, more than MAX_UNITS_PER_CHARACTER times the
 * limit is past it. Only a text between the two is counted, and only up to the limit.
 */
export function exceedsCharacters(text: string, limit: number): boolean {
  if (text.length <= limit) return false
  if (text.length > limit * MAX_UNITS_PER_CHARACTER) return true
  return characterCount(text, limit) > limit
}
