import { etagOf, writeConditionOf } from '@/server/preconditions'

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
  })

  it('reads one tag or a list of them', () => {
    expect(writeConditionOf('"rev-3"')).toEqual({ ifRevision: [3] })
    expect(writeConditionOf('"rev-3", "rev-5" ,"rev-8"')).toEqual({ ifRevision: [3, 5, 8] })
    expect(writeConditionOf(['"rev-1"', '"rev-2"'])).toEqual({ ifRevision: [1, 2] })
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
  ])('matches no version for %j, so that the write is stale', (header) => {
    expect(writeConditionOf(header)).toEqual({ ifRevision: [] })
  })

  it('keeps the good tags of a list that also holds garbage', () => {
    expect(writeConditionOf('junk, "rev-4", W/"rev-5"')).toEqual({ ifRevision: [4] })
  })
})
