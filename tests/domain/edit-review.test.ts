import { reviewEdit } from '@/domain/rules/edit-review'

const FIELDS = ['title', 'author', 'body'] as const
const base = { title: 'Harbour opens', author: 'Ada', body: 'On Monday at nine.' }

describe('the review of an edit refused because the post was saved meanwhile', () => {
  it.each([
    {
      case: 'a field only they changed takes their text',
      mine: { ...base, title: 'Harbour opens early' },
      theirs: { ...base, author: 'Ben' },
      values: { ...base, title: 'Harbour opens early', author: 'Ben' },
      bothChanged: [],
      theirsTaken: ['author'],
    },
    {
      case: 'a field only the visitor changed keeps the visitor’s text',
      mine: { ...base, body: 'On Monday at eight.' },
      theirs: base,
      values: { ...base, body: 'On Monday at eight.' },
      bothChanged: [],
      theirsTaken: [],
    },
    {
      case: 'a field both changed alike is no conflict',
      mine: { ...base, title: 'Same' },
      theirs: { ...base, title: 'Same' },
      values: { ...base, title: 'Same' },
      bothChanged: [],
      theirsTaken: [],
    },
    {
      case: 'a field both changed differently keeps the visitor’s text until they choose',
      mine: { ...base, body: 'On Monday at eight.' },
      theirs: { ...base, body: 'On Tuesday at nine.' },
      values: { ...base, body: 'On Monday at eight.' },
      bothChanged: ['body'],
      theirsTaken: [],
    },
  ])('$case', ({ mine, theirs, values, bothChanged, theirsTaken }) => {
    expect(reviewEdit(FIELDS, mine, theirs, base)).toEqual({ values, bothChanged, theirsTaken })
  })

  it('counts every field that differs as changed by both when the starting version is unknown', () => {
    const mine = { ...base, title: 'Mine' }
    const theirs = { ...base, author: 'Ben' }
    expect(reviewEdit(FIELDS, mine, theirs)).toEqual({
      values: mine,
      bothChanged: ['title', 'author'],
      theirsTaken: [],
    })
  })
})
