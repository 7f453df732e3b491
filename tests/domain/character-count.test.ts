import fc from 'fast-check'
import {
  characterCount,
  exceedsCharacters,
  MAX_UNITS_PER_CHARACTER,
  PIECE_UNITS,
} from '@/domain/rules/character-count'
import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { checkField } from '@/domain/rules/field-rule'
import { NEWS_LIMITS, NEWS_RULES } from '@/domain/rules/news-item.rules'
import { SEARCH_LIMITS, SEARCH_RULE } from '@/domain/rules/search-query.rules'
import { segmenterWork, unitsHanded } from './segmenter-work'

const KISS = '👩🏻‍❤️‍💋‍👨🏼'
const FAMILY = '👨‍👩‍👧‍👦'
const ENGLAND = '🏴󠁧󠁢󠁥󠁮󠁧󠁿'
const PROSE = 'The harbour council met at dawn, and the café stayed open late. '

/** Pieces that join into one character, or sit on a boundary the cutting must not move. */
const TRICKY = [
  'a',
  ' ',
  'e\u0301',
  '\r\n',
  '\r',
  '\n',
  FAMILY,
  KISS,
  ENGLAND,
  '🇫🇷',
  '👍🏽',
  'क्षि',
  '\u1100\u1161\u11a8',
  '각',
  '東京',
  'عربي',
  '\u0600' + '1',
  'ﬁ',
  '\u200d',
  '\u00ad',
  'x\u200dy',
  '\u0301',
]

/** The count of the whole text walked in one go, as the segmenter defines it. */
function referenceCount(text: string): number {
  return [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length
}

describe('counting characters in linear time', () => {
  it('refuses a text of 1 MB by its length alone, without segmenting any of it', async () => {
    const text = 'a'.repeat(1_000_000)
    let message: string | undefined
    const work = await segmenterWork(() => {
      message = checkField(NEWS_RULES.body, text)
    })
    expect(message).toBe('Must be 500 characters or less')
    expect(work.handed).toEqual([])
  })

  it('hands the segmenter a long text in pieces of bounded size, never whole', async () => {
    const text = PROSE.repeat(Math.ceil(100_000 / PROSE.length))
    let count = 0
    const work = await segmenterWork(() => {
      count = characterCount(text)
    })
    expect(count).toBe([...text].length)
    expect(unitsHanded(work)).toBe(text.length)
    expect(Math.max(...work.handed)).toBeLessThanOrEqual(PIECE_UNITS + 1)
  })

  it('stops counting a text it cannot cut once the count passes the limit', async () => {
    // Emoji only: no two plain characters side by side, so the text is one piece.
    const text = '👍'.repeat(NEWS_LIMITS.body * 8)
    let message: string | undefined
    const work = await segmenterWork(() => {
      message = checkField(NEWS_RULES.body, text)
    })
    expect(message).toBe('Must be 500 characters or less')
    expect(work.steps).toBe(NEWS_LIMITS.body + 1)
  })

  it('counts as the whole text would be counted, wherever the pieces are cut', () => {
    // Texts of 3,000 units and more, of prose and the characters that are hard to cut.
    const piece = fc.oneof(
      fc.integer({ min: 1, max: PROSE.length }).map((length) => PROSE.slice(0, length)),
      fc.constantFrom(...TRICKY),
    )
    const longText = fc
      .array(piece, { minLength: 1, maxLength: 200 })
      .map((pieces) => pieces.join(''))
      .map((text) => text.repeat(Math.ceil(3_000 / text.length)))
    fc.assert(
      fc.property(longText, (text) => {
        expect(characterCount(text)).toBe(referenceCount(text))
      }),
      { seed: 20_261_127, numRuns: 20 },
    )
  })
})

describe('the bound by code units', () => {
  it('is above the code units of the longest emoji a person types', () => {
    for (const emoji of [KISS, FAMILY, ENGLAND]) {
      expect(characterCount(emoji)).toBe(1)
      expect(emoji.length).toBeLessThan(MAX_UNITS_PER_CHARACTER)
    }
  })

  it('accepts a field filled to its limit with the longest emoji', () => {
    expect(checkField(NEWS_RULES.body, KISS.repeat(NEWS_LIMITS.body))).toBeUndefined()
    expect(checkField(NEWS_RULES.title, FAMILY.repeat(NEWS_LIMITS.title))).toBeUndefined()
    expect(checkField(NEWS_RULES.author, ENGLAND.repeat(NEWS_LIMITS.author))).toBeUndefined()
    expect(checkField(CONTACT_RULES.message, KISS.repeat(500))).toBeUndefined()
    expect(checkField(SEARCH_RULE, KISS.repeat(SEARCH_LIMITS.length))).toBeUndefined()
    expect(checkField(NEWS_RULES.body, KISS.repeat(NEWS_LIMITS.body + 1))).toBe(
      'Must be 500 characters or less',
    )
  })

  it('decides by the length alone below the limit and past its multiple', async () => {
    const work = await segmenterWork(() => {
      expect(exceedsCharacters('a'.repeat(500), 500)).toBe(false)
      expect(exceedsCharacters('a'.repeat(500 * MAX_UNITS_PER_CHARACTER + 1), 500)).toBe(true)
    })
    expect(work.handed).toEqual([])
  })
})
