import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { characterCount, checkField, checkFields } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'

const repeat = (text: string, times: number) => text.repeat(times)

describe('news rules', () => {
  it.each([
    ['title', 'Sorry, title is required'],
    ['body', 'Sorry, body is required'],
    ['author', 'Sorry, author is required'],
  ] as const)('requires a %s', (field, message) => {
    expect(checkField(NEWS_RULES[field], '')).toBe(message)
    expect(checkField(NEWS_RULES[field], undefined)).toBe(message)
  })

  it('treats a title of spaces as empty', () => {
    expect(checkField(NEWS_RULES.title, '   \n\t ')).toBe('Sorry, title is required')
  })

  it('accepts a title of exactly 100 characters and says 100 above it', () => {
    expect(checkField(NEWS_RULES.title, repeat('a', 100))).toBeUndefined()
    expect(checkField(NEWS_RULES.title, repeat('a', 101))).toBe('Must be 100 characters or less')
  })

  it('limits the body to 500 characters', () => {
    expect(checkField(NEWS_RULES.body, repeat('b', 500))).toBeUndefined()
    expect(checkField(NEWS_RULES.body, repeat('b', 501))).toBe('Must be 500 characters or less')
  })

  it('limits the author to 30 characters with its own message', () => {
    expect(checkField(NEWS_RULES.author, repeat('c', 30))).toBeUndefined()
    expect(checkField(NEWS_RULES.author, repeat('c', 31))).toBe(
      'Name must be less than 30 characters',
    )
  })

  it('counts an emoji as one character, even one made of several code points', () => {
    expect(characterCount('👍')).toBe(1)
    expect(characterCount('👨‍👩‍👧‍👦')).toBe(1)
    expect(characterCount('é')).toBe(1)
    expect(checkField(NEWS_RULES.author, repeat('👍', 30))).toBeUndefined()
    expect(checkField(NEWS_RULES.author, repeat('👍', 31))).toBe(
      'Name must be less than 30 characters',
    )
  })

  it('ignores surrounding white space when counting', () => {
    expect(checkField(NEWS_RULES.author, `  ${repeat('c', 30)}  `)).toBeUndefined()
  })

  it('checks only the fields asked for', () => {
    expect(checkFields(NEWS_RULES, { title: '' }, ['title'])).toEqual({
      title: 'Sorry, title is required',
    })
    expect(checkFields(NEWS_RULES, {})).toEqual({
      title: 'Sorry, title is required',
      body: 'Sorry, body is required',
      author: 'Sorry, author is required',
    })
  })
})

describe('contact rules', () => {
  it('requires each field with the spec message', () => {
    expect(checkFields(CONTACT_RULES, { name: ' ', email: '', message: '' })).toEqual({
      name: 'Sorry, name is required',
      email: 'Sorry, email is required',
      message: 'Sorry, message is required',
    })
  })

  it.each(['reader@example.com', 'a.b+tag@news.example.org', ' reader@example.com '])(
    'accepts the address %s',
    (email) => {
      expect(checkField(CONTACT_RULES.email, email)).toBeUndefined()
    },
  )

  it.each(['reader', 'reader@', '@example.com', 'reader@example', 'a b@example.com', 'a@b..com'])(
    'rejects the address %s',
    (email) => {
      expect(checkField(CONTACT_RULES.email, email)).toBe('Invalid email address')
    },
  )

  it('rejects an address longer than 254 characters', () => {
    expect(checkField(CONTACT_RULES.email, `${repeat('a', 250)}@example.com`)).toBe(
      'Invalid email address',
    )
  })

  it('limits the name to 30 and the message to 500 characters', () => {
    expect(checkField(CONTACT_RULES.name, repeat('n', 31))).toBe('Must be 30 characters or less')
    expect(checkField(CONTACT_RULES.message, repeat('m', 500))).toBeUndefined()
    expect(checkField(CONTACT_RULES.message, repeat('m', 501))).toBe(
      'Must be 500 characters or less',
    )
  })
})
