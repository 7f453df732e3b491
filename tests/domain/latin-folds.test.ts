import { LATIN_FOLDS } from '@/domain/rules/latin-folds'
import { foldForSearch, termsOf } from '@/domain/rules/search-query.rules'
import { highlightParts } from '@/domain/rules/search-highlight'
import { latinFoldsFromLucene } from '../../scripts/latin-folds.table'

describe('folding letters for search, those without a decomposition by Lucene’s table', () => {
  it('is Lucene’s ASCII folding table, as npm run latin-folds writes it', () => {
    expect(LATIN_FOLDS).toEqual(Object.fromEntries(latinFoldsFromLucene()))
  })

  it.each([
    // Letters that decompose, compatibility forms and case: Unicode's own folds.
    ['Café', 'cafe'],
    ['CAFÉ', 'cafe'],
    ['Straße', 'strasse'],
    ['ﬁnal', 'final'],
    ['Ｔｏｋｙｏ', 'tokyo'],
    ['x²', 'x2'],
    ['ΣΟΦΟΣ', 'σοφος'],
    ['İstanbul', 'istanbul'],
    ['Ångström', 'angstrom'],
    // Letters that do not: the table's.
    ['Øresund', 'oresund'],
    ['Łódź', 'lodz'],
    ['œuvre', 'oeuvre'],
    ['Ærø', 'aero'],
    ['Đakovo', 'dakovo'],
    ['Ħamrun', 'hamrun'],
    ['ıstanbul', 'istanbul'],
    ['STRAẞE', 'strasse'],
    ['Þórshöfn', 'thorshofn'],
    ['Garður', 'gardur'],
  ])('folds %s to %s', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded)
  })

  it('leaves the letters of other scripts as they are', () => {
    expect(termsOf('Σοφία 東京 Київ')).toEqual(['σοφια', '東京', 'киів'])
  })

  it('marks the original letters of a folded word', () => {
    expect(highlightParts('Ferry to Ærø today', termsOf('aero'))).toEqual([
      { text: 'Ferry to ', matched: false },
      { text: 'Ærø', matched: true },
      { text: ' today', matched: false },
    ])
  })
})
