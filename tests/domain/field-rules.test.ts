import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { characterCount } from '@/domain/rules/character-count'
import { checkField, checkFields } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { normaliseDraft, wellFormed } from '@/domain/rules/normalise'

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

describe('control characters', () => {
  const C0 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code))
  const C1 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(0x80 + code))
  const LINE_BREAKS = ['\t', '\n', '\r']
  const BIDI_EMBEDDINGS = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e']
  const name = (char: string) => `U+${char.charCodeAt(0).toString(16).padStart(4, '0')}`

  it.each([
    ['title', NEWS_RULES.title, "Sorry, title can't contain control characters"],
    ['author', NEWS_RULES.author, "Sorry, author can't contain control characters"],
    ['contact name', CONTACT_RULES.name, "Sorry, name can't contain control characters"],
  ])('refuses every control character inside a %s, tab and line breaks too', (_, rule, message) => {
    const refused = [...C0, '\u007f', ...C1, '\u2028', '\u2029', ...BIDI_EMBEDDINGS]
    for (const char of refused) {
      expect({ char: name(char), message: checkField(rule, `a${char}b`) }).toEqual({
        char: name(char),
        message,
      })
    }
  })

  it.each([
    ['body', NEWS_RULES.body, "Sorry, body can't contain control characters"],
    ['message', CONTACT_RULES.message, "Sorry, message can't contain control characters"],
  ])(
    'lets tab and line breaks through a %s, and refuses the other controls',
    (_, rule, message) => {
      const refused = [
        ...C0.filter((char) => !LINE_BREAKS.includes(char)),
        '\u007f',
        ...C1,
        ...BIDI_EMBEDDINGS,
      ]
      for (const char of refused) {
        expect({ char: name(char), message: checkField(rule, `a${char}b`) }).toEqual({
          char: name(char),
          message,
        })
      }
      for (const char of [...LINE_BREAKS, '\r\n', '\u2028', '\u2029']) {
        expect(checkField(rule, `first${char}second`)).toBeUndefined()
      }
    },
  )

  it('refuses a NUL in a contact address as an invalid address', () => {
    expect(checkField(CONTACT_RULES.email, 'reader\u0000@example.com')).toBe(
      'Invalid email address',
    )
  })

  it('keeps right-to-left text with its marks and isolates, joiners and emoji', () => {
    const text = 'שלום \u200fעולם\u200e \u2067عربي\u2069 می\u200cخواهم 👨‍👩‍👧 \u061c'
    for (const rule of [NEWS_RULES.title, NEWS_RULES.author, NEWS_RULES.body]) {
      expect(checkField(rule, text)).toBeUndefined()
    }
  })

  it('ignores control-free white space around a one-line field, as it is trimmed away', () => {
    expect(checkField(NEWS_RULES.title, '\tTitle\r\n')).toBeUndefined()
  })

  it('says the length first when a text is both too long and holds a control character', () => {
    expect(checkField(NEWS_RULES.author, `${repeat('c', 31)}\u0007`)).toBe(
      'Name must be less than 30 characters',
    )
  })
})

describe('well-formed text', () => {
  it('replaces each unpaired surrogate with U+FFFD and keeps paired ones', () => {
    expect(wellFormed('a\ud800b')).toBe('a\ufffdb')
    expect(wellFormed('a\udc00b\ud83d')).toBe('a\ufffdb\ufffd')
    expect(wellFormed('👍 \ud83d\udc4d')).toBe('👍 👍')
  })

  it('normalises a draft to well-formed, trimmed text', () => {
    expect(normaliseDraft({ title: ' a\ud800 ', body: 'b\udfff\n', author: 'c' })).toEqual({
      title: 'a\ufffd',
      body: 'b\ufffd',
      author: 'c',
    })
  })
})
