import { excerpt } from '@/domain/rules/excerpt'
import { excerptAround, highlightParts, type TextPart } from '@/domain/rules/search-highlight'
import { parseSearchQuery } from '@/domain/rules/search-query.rules'

/** The words a query asks for, as the search page has them. */
function termsOf(query: string): readonly string[] {
  const parsed = parseSearchQuery(query)
  if (!parsed.ok) throw new Error(`the rules refuse ${query}`)
  return parsed.value.terms
}

/** The marked words only. */
function marked(text: string, query: string): string[] {
  return highlightParts(text, termsOf(query))
    .filter((part) => part.matched)
    .map((part) => part.text)
}

const joined = (parts: readonly TextPart[]) => parts.map((part) => part.text).join('')

/** The parts written out, `|` between two, a marked one in brackets. */
const written = (parts: readonly TextPart[]) =>
  parts.map((part) => (part.matched ? `[${part.text}]` : part.text)).join('|')

describe('highlighting the words a search matched', () => {
  it('marks a word whatever its case and accents: CAFE marks café, Café and CAFÉ', () => {
    const text = 'A café opens. Café owners and the CAFÉ guild cheer; cafes stay shut.'

    expect(marked(text, 'CAFE')).toEqual(['café', 'Café', 'CAFÉ'])
  })

  it('marks an accent written as a combining mark, with its mark', () => {
    const decomposed = 'Cafe\u0301 society'

    expect(highlightParts(decomposed, termsOf('cafe'))).toEqual([
      { text: 'Cafe\u0301', matched: true },
      { text: ' society', matched: false },
    ])
  })

  it('marks every word of a query of several words, each where it stands', () => {
    const text = 'The harbour reopens; boats return to the harbour at dawn.'

    expect(written(highlightParts(text, termsOf('Harbour dawn')))).toBe(
      'The |[harbour]| reopens; boats return to the |[harbour]| at |[dawn]|.',
    )
  })

  it('marks whole words only, never a word inside another', () => {
    expect(marked('Newsroom news: newsletters and news.', 'news')).toEqual(['news', 'news'])
  })

  it('marks a word once when several words of the query fold to it, and keeps neighbours apart', () => {
    // 'Straße' and 'STRASSE' fold alike; '½' folds to both 1 and 2.
    const text = 'Straße strasse ½'

    const parts = highlightParts(text, termsOf('STRASSE straße 1 2'))

    expect(written(parts)).toBe('[Straße]| |[strasse]| |[½]')
  })

  it('leaves a text without a match as one plain part, and an empty text as none', () => {
    expect(highlightParts('Night market returns', termsOf('harbour'))).toEqual([
      { text: 'Night market returns', matched: false },
    ])
    expect(highlightParts('Night market returns', [])).toEqual([
      { text: 'Night market returns', matched: false },
    ])
    expect(highlightParts('', termsOf('harbour'))).toEqual([])
  })

  it('cuts right-to-left text into parts without changing a character, marks and all', () => {
    const text = 'قال مُحَمَّد إن الميناء مفتوح'

    const parts = highlightParts(text, termsOf('محمد'))

    expect(parts.filter((part) => part.matched).map((part) => part.text)).toEqual(['مُحَمَّد'])
    expect(joined(parts)).toBe(text)
  })

  it('keeps markup in a post as text to mark, never as markup', () => {
    const text = '<b>bold</b> & <script>news</script>'

    const parts = highlightParts(text, termsOf('news bold'))

    expect(joined(parts)).toBe(text)
    expect(parts.filter((part) => part.matched).map((part) => part.text)).toEqual(['bold', 'news'])
  })
})

describe('the excerpt of a search result', () => {
  const start = 'The council met on Tuesday to talk about the budget for the coming year. '
  const body = `${start.repeat(4)}Then the lighthouse keeper asked for a new lamp, and everyone agreed.`

  it('is the start of the body when the first match is in it, as on the list', () => {
    expect(excerptAround(body, termsOf('council'))).toBe(excerpt(body))
    expect(excerptAround(body, termsOf('nothing'))).toBe(excerpt(body))
  })

  it('shows the part around the first match when it lies past the start, after an ellipsis', () => {
    const shown = excerptAround(body, termsOf('LIGHTHOUSE'))

    expect(excerpt(body)).not.toContain('lighthouse')
    expect(shown.startsWith('…')).toBe(true)
    expect(shown).toContain('the lighthouse keeper asked for a new lamp')
    // It starts at a word, a few words before the match.
    expect(body).toContain(shown.slice(1).replace(/…$/, ''))
    expect(Array.from(shown).length).toBeLessThanOrEqual(161)
  })
})
