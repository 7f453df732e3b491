import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { useCasesFor } from '@/application/use-cases'
import { MemoryMailer } from '@/adapters/memory/memory.mailer'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import { unavailable, validationFailed } from '@/domain/domain-error'
import { MAX_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import {
  parseSearchQuery,
  SEARCH_RULE,
  searchDocumentOf,
  SEARCH_LIMITS,
  searchTierOf,
  termsOf,
  TOO_MANY_TERMS,
} from '@/domain/rules/search-query.rules'
import { faulty } from '../support/faulty-port'

function setup() {
  let tick = 0
  const now = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++))
  const repository = faulty(new JournaledNewsRepository(new MemoryNewsStore(), { now }))
  const { searchNews, createNews } = useCasesFor({ news: repository, mailer: new MemoryMailer() })
  return { repository, search: searchNews, create: createNews }
}

const refusal = (message: string) => ({ ok: false, error: validationFailed({ q: message }) })

describe('search news', () => {
  it('finds the live posts holding every word, best tier first', async () => {
    const { search, create } = setup()
    await create.execute({ title: 'Weather', body: 'Storm at the harbour.', author: 'Ada' })
    await create.execute({ title: 'Storm over the harbour', body: 'Wet.', author: 'Ada' })
    await create.execute({ title: 'Harbour', body: 'Calm.', author: 'Ada' })
    const result = await search.execute({ q: '  Storm   HARBOUR ' })
    expect(result.ok && result.value.items.map((item) => item.title)).toEqual([
      'Storm over the harbour',
      'Weather',
    ])
  })

  it.each([
    ['', SEARCH_RULE.required],
    ['   ', SEARCH_RULE.required],
    ['x'.repeat(201), SEARCH_RULE.maxLength.message],
    ['a\u0000b', SEARCH_RULE.characters.message],
    ['a\nb', SEARCH_RULE.characters.message],
    [Array.from({ length: SEARCH_LIMITS.terms + 1 }, (_, n) => `w${n}`).join(' '), TOO_MANY_TERMS],
  ])(
    'refuses %j with the domain’s message on q, without asking the repository',
    async (q, message) => {
      const { search, repository } = setup()
      repository.faults.failOn('search')
      expect(await search.execute({ q })).toEqual(refusal(message))
    },
  )

  it('counts the length as a reader does: 200 emoji are 200 characters', async () => {
    const { search } = setup()
    expect((await search.execute({ q: '👩🏽‍🚀'.repeat(200) })).ok).toBe(true)
    expect(await search.execute({ q: '👩🏽‍🚀'.repeat(201) })).toEqual(
      refusal(SEARCH_RULE.maxLength.message),
    )
  })

  it('answers an empty page for a query without a word, without asking the repository', async () => {
    const { search, repository } = setup()
    repository.faults.failOn('search')
    expect(await search.execute({ q: '!!! 👍 ...' })).toEqual({ ok: true, value: { items: [] } })
  })

  it('bounds the page size as the list does', async () => {
    const { search, create } = setup()
    for (let n = 0; n < MAX_PAGE_SIZE + 1; n += 1) {
      await create.execute({ title: `Tide ${n}`, body: 'Body.', author: 'Ada' })
    }
    const huge = await search.execute({ q: 'tide', limit: 10_000 })
    const none = await search.execute({ q: 'tide', limit: 0 })
    expect(huge.ok && huge.value.items).toHaveLength(MAX_PAGE_SIZE)
    expect(none.ok && none.value.items).toHaveLength(1)
  })

  it('reports Unavailable when the repository cannot answer', async () => {
    const { search, repository } = setup()
    repository.faults.failOn('search')
    expect(await search.execute({ q: 'tide' })).toEqual({ ok: false, error: unavailable() })
  })
})

describe('the search rules', () => {
  it('splits words at anything that is not a letter or digit, once each, in order', () => {
    expect(termsOf(`L'été, c'est "l'été" — e-mail: x@y.z 3.5 東京都 👍`)).toEqual([
      'l',
      'ete',
      'c',
      'est',
      'e',
      'mail',
      'x',
      'y',
      'z',
      '3',
      '5',
      '東京都',
    ])
  })

  it('cuts a word at 64 characters, on both sides alike', () => {
    const long = 'é'.repeat(100)
    expect(termsOf(long)).toEqual(['e'.repeat(64)])
    expect(termsOf(`${long}x`)).toEqual(termsOf(long))
  })

  it('keeps the query as typed, trimmed and well-formed, beside its words', () => {
    expect(parseSearchQuery('  Café \ud800 ')).toEqual({
      ok: true,
      value: { text: 'Café \ufffd', terms: ['cafe'] },
    })
  })

  it('ranks a post 2 when its title holds every word, 1 for some, 0 for none', () => {
    const document = searchDocumentOf({
      title: 'Storm warning',
      body: 'The harbour closes.',
      author: 'Ada Lovelace',
    })
    expect(searchTierOf(document, ['storm', 'warning'])).toBe(2)
    expect(searchTierOf(document, ['storm', 'harbour'])).toBe(1)
    expect(searchTierOf(document, ['harbour', 'lovelace'])).toBe(0)
    expect(searchTierOf(document, ['storm', 'submarine'])).toBeUndefined()
    expect(searchTierOf(document, [])).toBeUndefined()
  })
})
