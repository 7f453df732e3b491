import {
  etagOf,
  matchesIfNoneMatch,
  pageEtagOf,
  writeConditionOf,
} from '@/server/services/preconditions'

describe('etagOf', () => {
  it('is a strong tag naming the revision', () => {
    expect(etagOf({ revision: 12 })).toBe('"rev-12"')
  })
})

describe('writeConditionOf', () => {
  it('sets no condition without If-Match or for *', () => {
    expect(writeConditionOf(undefined)).toBeUndefined()
    expect(writeConditionOf('*')).toBeUndefined()
    expect(writeConditionOf(' * ')).toBeUndefined()
    expect(writeConditionOf('\t*\t')).toBeUndefined()
  })

  it('reads one tag or a list of them, with SP and HTAB around them and empty elements', () => {
    expect(writeConditionOf('"rev-3"')).toEqual({ ifRevision: [3] })
    expect(writeConditionOf('"rev-3", "rev-5" ,"rev-8"')).toEqual({ ifRevision: [3, 5, 8] })
    expect(writeConditionOf(['"rev-1"', '"rev-2"'])).toEqual({ ifRevision: [1, 2] })
    expect(writeConditionOf('\t"rev-1"\t,, ,"rev-2" ,')).toEqual({ ifRevision: [1, 2] })
  })

  it('reads a tag that holds a comma as one tag', () => {
    expect(writeConditionOf('"a,b", "rev-4"')).toEqual({ ifRevision: [4] })
  })

  it.each([
    'garbage',
    '',
    'W/"rev-3"',
    '"rev-0"',
    '"rev-03"',
    '"rev--3"',
    '"rev-3',
    'rev-3',
    '"rev-99999999999999999"',
    '*, "rev-1x"',
    '*, "rev-1"',
    '"rev-1", *',
    '"rev-1"\u00a0',
    '\u00a0"rev-1"',
    '"rev-1"\u3000',
    '"rev-1" "rev-2"',
    '"rev-1"\n',
    '"1"',
    `"rev-${'9'.repeat(500)}"`,
    'junk, "rev-4"',
    '"rev-4", W/"rev-5", junk',
  ])('matches no version for the malformed or foreign %j, so that the write is stale', (header) => {
    expect(writeConditionOf(header)).toEqual({ ifRevision: [] })
  })

  it('reads weak tags as matching no version (If-Match compares strongly)', () => {
    expect(writeConditionOf('W/"rev-5", "rev-4"')).toEqual({ ifRevision: [4] })
  })
})

describe('pageEtagOf', () => {
  it('is a weak tag that depends on the body and the Link alone', () => {
    const tag = pageEtagOf('[{"_id":"a"}]', undefined)
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/)
    expect(pageEtagOf('[{"_id":"a"}]', undefined)).toBe(tag)
    expect(pageEtagOf('[{"_id":"b"}]', undefined)).not.toBe(tag)
    expect(pageEtagOf('[{"_id":"a"}]', '</api/news?limit=1&cursor=x>; rel="next"')).not.toBe(tag)
  })
})

describe('matchesIfNoneMatch', () => {
  it('matches nothing without a header', () => {
    expect(matchesIfNoneMatch(undefined, '"rev-1"')).toBe(false)
  })

  it('matches any representation for *', () => {
    expect(matchesIfNoneMatch('*', '"rev-1"')).toBe(true)
    expect(matchesIfNoneMatch(' * ', 'W/"abc"')).toBe(true)
  })

  // Compared weakly: W/ on either side does not matter.
  it.each([
    ['"rev-1"', '"rev-1"', true],
    ['W/"rev-1"', '"rev-1"', true],
    ['"abc"', 'W/"abc"', true],
    ['W/"abc"', 'W/"abc"', true],
    ['"rev-2", "rev-1"', '"rev-1"', true],
    ['"rev-2",W/"rev-1" , "rev-3"', '"rev-1"', true],
    ['"rev-2"', '"rev-1"', false],
    ['"rev-10"', '"rev-1"', false],
    ['rev-1', '"rev-1"', false],
    ['', '"rev-1"', false],
    ['"REV-1"', '"rev-1"', false],
    ['*, "rev-2"', '"rev-1"', false],
  ])('%j names %s: %s', (header, etag, names) => {
    expect(matchesIfNoneMatch(header, etag)).toBe(names)
  })
})
