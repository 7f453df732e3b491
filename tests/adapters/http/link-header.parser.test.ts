import { nextLinkOf, parseLinkHeader } from '@/adapters/http/link-header.parser'

describe('parseLinkHeader', () => {
  it('reads several links with their relation types, quoted or not', () => {
    expect(parseLinkHeader('</a>; rel="next", <https://x.test/b>; rel=prev')).toEqual([
      { target: '/a', rels: ['next'] },
      { target: 'https://x.test/b', rels: ['prev'] },
    ])
  })

  it('splits a rel that names several types and lower-cases them', () => {
    expect(parseLinkHeader('</a>; rel="Next  Prefetch"')).toEqual([
      { target: '/a', rels: ['next', 'prefetch'] },
    ])
  })

  it('is not fooled by commas and semicolons inside quoted parameters', () => {
    expect(parseLinkHeader('</a>; title="x, <y>; rel=next"; rel="last", </b>; rel="next"')).toEqual(
      [
        { target: '/a', rels: ['last'] },
        { target: '/b', rels: ['next'] },
      ],
    )
  })

  it('uses only the first rel of a link', () => {
    expect(parseLinkHeader('</a>; rel="prev"; rel="next"')).toEqual([
      { target: '/a', rels: ['prev'] },
    ])
  })

  it('keeps the links before a malformed one and stops there', () => {
    expect(parseLinkHeader('</a>; rel=next, garbage </b>; rel=prev')).toEqual([
      { target: '/a', rels: ['next'] },
    ])
    expect(parseLinkHeader('')).toEqual([])
  })
})

describe('nextLinkOf', () => {
  it('resolves the next link against the request URL', () => {
    const request = new URL('https://news.test/api/news?limit=2')

    expect(nextLinkOf('<?limit=2&cursor=x>; rel="next"', request)?.href).toBe(
      'https://news.test/api/news?limit=2&cursor=x',
    )
    expect(nextLinkOf('</api/news?c=1>; rel="prev"', request)).toBeUndefined()
    expect(nextLinkOf(null, request)).toBeUndefined()
  })
})
