// @vitest-environment jsdom
import { render, screen, waitFor, within } from '@testing-library/react'
import { act } from 'react'
import { createMemoryApp } from '../support/memory-app'
import { HighlightedText } from '@/ui/shared/highlighted-text'
import { marketPost, newsItem, renderApp } from './support/render-app'

const CAFE = newsItem({
  _id: 'cafe-1',
  title: 'A new café opens by the harbour',
  body: 'The café serves coffee from dawn.',
  author: 'Ada Brook',
})
const MARKET = marketPost

const searchbox = () => screen.getByRole('searchbox', { name: 'Search news' })
const results = () => screen.findByRole('list', { name: /^Results for/ })
const shownResults = () => screen.getByRole('list', { name: /^Results for/ })

/** The marked words of each result's title, in order. */
function markedTitles(list: HTMLElement): string[][] {
  return within(list)
    .getAllByRole('heading', { level: 2 })
    .map((title) => [...title.querySelectorAll('mark')].map((mark) => mark.textContent ?? ''))
}

beforeEach(() => {
  document.title = ''
})

describe('the search field in the header', () => {
  it.each(['/', '/contact', '/news/new', '/news/cafe-1', '/no/such/page'])(
    'sits in the header of %s, in a search landmark, as a GET form to /search',
    async (path) => {
      renderApp({ path, seed: [CAFE] })

      const landmark = within(screen.getByRole('banner')).getByRole('search')
      const field = within(landmark).getByRole('searchbox', { name: 'Search news' })
      expect(field).toHaveAttribute('name', 'q')
      expect(landmark).toHaveAttribute('action', '/search')
      expect(landmark).toHaveAttribute('method', 'get')
      expect(within(landmark).getByRole('button', { name: 'Search' })).toBeInTheDocument()
    },
  )

  it('goes to /search?q= on Enter and shows the matching posts with the words marked', async () => {
    const { user } = renderApp({ path: '/', seed: [CAFE, MARKET], browser: true })
    await screen.findByRole('heading', { name: MARKET.title })

    await user.type(searchbox(), 'CAFE harbour{Enter}')

    await waitFor(() => expect(window.location.search).toBe('?q=CAFE+harbour'))
    expect(window.location.pathname).toBe('/search')
    const list = await results()
    expect(within(list).getAllByRole('article')).toHaveLength(1)
    expect(markedTitles(list)).toEqual([['café', 'harbour']])
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Results for “CAFE harbour”',
    )
    expect(screen.getByRole('status')).toHaveTextContent('1 post found')
    expect(document.title).toBe('Search: CAFE harbour | NewsWire')
    expect(searchbox()).toHaveValue('CAFE harbour')
  })

  it('follows the address: a new query, Back to the earlier one, and empty away from search', async () => {
    const { user } = renderApp({ path: '/search?q=market', seed: [CAFE, MARKET], browser: true })
    expect(markedTitles(await results())).toEqual([['market']])
    expect(searchbox()).toHaveValue('market')

    await user.clear(searchbox())
    await user.type(searchbox(), 'café{Enter}')
    await waitFor(() => expect(markedTitles(shownResults())).toEqual([['café']]))
    // The field keeps the focus, for the next query.
    expect(searchbox()).toHaveFocus()

    act(() => window.history.back())
    await waitFor(() => expect(window.location.search).toBe('?q=market'))
    await waitFor(() => expect(markedTitles(shownResults())).toEqual([['market']]))
    expect(searchbox()).toHaveValue('market')

    await user.click(within(screen.getByRole('navigation')).getByRole('link', { name: 'Home' }))
    await screen.findByRole('heading', { name: MARKET.title })
    expect(searchbox()).toHaveValue('')
  })

  it('adds no second history entry for the same search again', async () => {
    const { user } = renderApp({ path: '/', seed: [CAFE], browser: true })
    const before = window.history.length

    await user.type(searchbox(), 'cafe{Enter}')
    await results()
    await user.type(searchbox(), '{Enter}')
    await results()

    expect(window.history.length).toBe(before + 1)
  })
})

describe('the search page', () => {
  it('says that no post matches, with the query as text', async () => {
    renderApp({ path: '/search?q=%3Cb%3Elighthouse%3C%2Fb%3E', seed: [CAFE] })

    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('No posts match “<b>lighthouse</b>”'),
    )
    expect(screen.getByText(/try fewer or other words/)).toBeInTheDocument()
    expect(screen.queryByRole('article')).not.toBeInTheDocument()
    expect(document.querySelector('main b')).toBeNull()
  })

  it.each([
    ['a blank query', '/search?q=+++', 'Type a word to search for'],
    ['no query at all', '/search', 'Type a word to search for'],
    ['too many words', `/search?q=${'a b c d e f g'.replace(/ /g, '+')}`, '6'],
  ])('shows the rules’ reason for %s, and searches nothing', async (_, path, reason) => {
    const app = createMemoryApp({ seed: [CAFE] })
    const search = vi.spyOn(app.news, 'search')
    renderApp({ path, app })

    expect(await screen.findByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent(reason)
    expect(document.title).toBe('Search | NewsWire')
    expect(search).not.toHaveBeenCalled()
  })

  it('starts from the results the server rendered it with, and asks for them no more', async () => {
    const app = createMemoryApp({ seed: [CAFE, MARKET] })
    const search = vi.spyOn(app.news, 'search')
    renderApp({
      app,
      path: '/search?q=market',
      pageData: { search: { q: 'market', page: { items: [MARKET] } } },
    })

    const list = await results()
    expect(markedTitles(list)).toEqual([['market']])
    expect(screen.getByRole('status')).toHaveTextContent('1 post found')
    expect(search).not.toHaveBeenCalled()
  })
})

describe('highlighted text', () => {
  it('marks the matched words in <mark> and renders markup in a post as text', () => {
    const { container } = render(
      <p>
        <HighlightedText text="<i>Café</i> & cafe" terms={['cafe']} />
      </p>,
    )

    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
      'Café',
      'cafe',
    ])
    expect(container.querySelector('i')).toBeNull()
    expect(container.textContent).toBe('<i>Café</i> & cafe')
  })

  it('renders the text alone when there are no words to mark', () => {
    const { container } = render(
      <p>
        <HighlightedText text="Night market" />
      </p>,
    )

    expect(container.innerHTML).toBe('<p>Night market</p>')
  })
})
