import { JSDOM } from 'jsdom'
import type { PageData } from '@/application/page-data'
import { SEARCH_RULE } from '@/domain/rules/search-query.rules'
import * as renderer from '@/ui/app/server-render'
import { segmenterWork } from '../domain/segmenter-work'
import { createPostThroughApi, templateDistDir, useServer } from './server-fixture'

const { server } = useServer({ options: { distDir: templateDistDir(), renderer } })

beforeAll(async () => {
  await createPostThroughApi(server, 'A new café opens by the harbour', {
    body: 'The café serves coffee from dawn.',
  })
  await createPostThroughApi(server, 'Night market returns', { body: 'Forty stalls open.' })
})

async function page(url: string) {
  const response = await server.app.inject({ url })
  const { document } = new JSDOM(response.body).window
  const text = document.getElementById(renderer.PAGE_DATA_ID)?.textContent
  return {
    response,
    document,
    robots: document.querySelector('meta[name="robots"]')?.getAttribute('content'),
    data: text === undefined || text === null ? undefined : (JSON.parse(text) as PageData),
    status: document.querySelector('#root [role="status"]')?.textContent,
  }
}

describe('the server-rendered search page', () => {
  it('renders the first page of results, the words marked, with the data the app starts from', async () => {
    const found = await page('/search?q=CAFE')

    expect(found.response.statusCode).toBe(200)
    expect(found.document.title).toBe('Search: CAFE | NewsWire')
    expect(found.document.querySelector('#root h1')?.textContent).toBe('Results for “CAFE”')
    expect(found.status).toBe('1 post found')
    const titles = [...found.document.querySelectorAll('#root main article h2')]
    expect(titles.map((title) => title.textContent)).toEqual(['A new café opens by the harbour'])
    expect(
      [...found.document.querySelectorAll('#root main mark')].map((m) => m.textContent),
    ).toEqual(['café', 'café'])
    expect(found.data?.search?.q).toBe('CAFE')
    expect(found.data?.search?.page.items.map((item) => item.title)).toEqual([
      'A new café opens by the harbour',
    ])
    // The header's field holds the query, in a form that works without JavaScript.
    const form = found.document.querySelector('#root header form[role="search"]')
    expect(form?.getAttribute('action')).toBe('/search')
    expect(form?.getAttribute('method')).toBe('get')
    expect(form?.querySelector<HTMLInputElement>('input[type="search"][name="q"]')?.value).toBe(
      'CAFE',
    )
  })

  it('reads the query as the header form sends it: spaces as +, accents percent-encoded', async () => {
    const found = await page('/search?q=caf%C3%A9+HARBOUR')

    expect(found.status).toBe('1 post found')
    expect(found.data?.search?.q).toBe('café HARBOUR')
  })

  it('answers 200 with the empty state when no post matches, and keeps search engines out', async () => {
    const none = await page('/search?q=lighthouse')

    expect(none.response.statusCode).toBe(200)
    expect(none.status).toBe('No posts match “lighthouse”')
    expect(none.document.querySelectorAll('#root main article')).toHaveLength(0)
    expect(none.robots).toBe('noindex')
    expect(none.document.querySelector('link[rel="canonical"]')).toBeNull()
  })

  it.each([
    ['no query', '/search', 'Type a word to search for'],
    ['a blank query', '/search?q=+%20+', 'Type a word to search for'],
    ['a control character', '/search?q=caf%07e', 'control characters'],
    ['500 characters', `/search?q=${'a'.repeat(500)}`, '200'],
    ['more than six words', `/search?q=${'a+b+c+d+e+f+g'}`, '6'],
  ])('answers 200 with the rules’ reason for %s, and no results data', async (_, url, reason) => {
    const refused = await page(url)

    expect(refused.response.statusCode).toBe(200)
    expect(refused.document.title).toBe('Search | NewsWire')
    expect(refused.document.querySelector('#root h1')?.textContent).toBe('Search')
    expect(refused.status).toContain(reason)
    expect(refused.data?.search).toBeUndefined()
    expect(refused.robots).toBe('noindex')
  })

  it('refuses a query of 15,000 characters as too long, without counting its characters', async () => {
    let refused: Awaited<ReturnType<typeof page>> | undefined
    const work = await segmenterWork(async () => {
      refused = await page(`/search?q=${'harbour+'.repeat(1875)}`)
    })

    expect(refused?.response.statusCode).toBe(200)
    expect(refused?.status).toBe(SEARCH_RULE.maxLength.message)
    expect(refused?.data?.search).toBeUndefined()
    expect(work.handed).toEqual([])
  })

  it.each([
    '/search?q=%22harbour%22',
    '/search?q=harbour+OR+market',
    '/search?q=-harbour+*+NOT+(market)',
    '/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    '/search?q=%E0%A4%A',
    '/search?q=a&q=b',
  ])('renders %s as a search, whatever its quotes and operators', async (url) => {
    const answered = await page(url)

    expect(answered.response.statusCode).toBe(200)
    expect(answered.document.querySelector('#root h1')?.textContent).toMatch(/^Results for “/)
    expect(answered.document.querySelectorAll('script:not([type])')).toHaveLength(0)
    expect(answered.response.body).not.toContain('<script>alert(1)')
  })
})
