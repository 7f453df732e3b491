import fc from 'fast-check'
import { excerpt } from '@/domain/rules/excerpt'
import { foldCaseAndMarks, foldForSearch, termsOf } from '@/domain/rules/search-query.rules'

/*
 * The search page folds every word of every result and cuts an excerpt of every body, so those
 * take short ways where they can. These properties hold the short ways to the long ones, on
 * texts fast-check makes up (a fixed seed, so that the verdict is the same every run).
 */
const RUNS = { seed: 20_261_127, numRuns: 500 }

/** Text of every kind: ASCII, accented letters, other scripts, astral characters, spaces. */
const anyText = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    '7',
    ' ',
    '\n',
    'é',
    'ß',
    'ﬁ',
    'ø',
    'Ω',
    '½',
    '😀',
    '\ud83d',
    '\ude00',
    '𝐀',
    'e\u0301',
    '.',
    '-',
  ),
  maxLength: 400,
})

/** The excerpt as first written: every character of the text counted. */
function excerptCountingAll(text: string, maxCharacters: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const characters = Array.from(flat)
  if (characters.length <= maxCharacters) return flat
  const head = characters.slice(0, maxCharacters + 1).join('')
  const lastSpace = head.lastIndexOf(' ')
  const cut = lastSpace > 0 ? head.slice(0, lastSpace) : characters.slice(0, maxCharacters).join('')
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`
}

describe('the short ways of search folding and excerpts', () => {
  it('folds ASCII text to what the full folding gives: its lower case', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
        }),
        (text) => {
          expect(foldForSearch(text)).toBe(foldCaseAndMarks(text))
        },
      ),
      RUNS,
    )
  })

  it('finds the same words in a text whether it is folded whole or word by word', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const wordByWord = text.split(/\s+/).flatMap((word) => termsOf(word))
        expect(new Set(termsOf(text))).toEqual(new Set(wordByWord))
      }),
      RUNS,
    )
  })

  it('cuts an excerpt as counting every character of the text would, however long', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 200 }), (text, max) => {
        expect(excerpt(text, max)).toBe(excerptCountingAll(text, max))
      }),
      RUNS,
    )
  })
})
