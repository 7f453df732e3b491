// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react'
import { createMemoryApp } from '../support/memory-app'
import { manyNews, newsItem, renderApp } from './support/render-app'
import { declarationsOf } from './support/stylesheet'

/**
 * The cards in the grid, in the list's order: the order the feed's aria-owns gives them (the
 * masonry's DOM goes column by column). A role query is slow on a page of 30 cards.
 */
function cards(): HTMLElement[] {
  const owned = document.querySelector('main [role="feed"]')?.getAttribute('aria-owns') ?? ''
  const listed = owned === '' ? [] : owned.split(' ').map((id) => document.getElementById(id))
  expect(listed).toHaveLength(cardsInDom().length)
  return listed.filter((card): card is HTMLElement => card !== null)
}

/** The cards as the DOM has them, column by column. */
function cardsInDom(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>('main article'))
}

function postNumber(card: HTMLElement): number {
  const title = card.querySelector('h2')?.textContent ?? ''
  return Number(/(\d+)$/.exec(title)?.[1] ?? Number.NaN)
}

function imageOf(card: HTMLElement): HTMLImageElement {
  const image = card.querySelector('img')
  if (image === null) throw new Error('the card has no image')
  return image
}

describe('news list: loading', () => {
  it('loads the news once when the list opens', async () => {
    const app = createMemoryApp({ seed: manyNews(3) })
    const listNews = vi.spyOn(app.useCases.listNews, 'execute')
    renderApp({ app })

    await screen.findByText('Post number 3')
    expect(listNews).toHaveBeenCalledTimes(1)
  })

  it('says there are no posts yet and links to the add form when the list is empty', async () => {
    const { user } = renderApp({ seed: [] })

    expect(await screen.findByText('There are no news posts yet.')).toBeInTheDocument()
    expect(cards()).toHaveLength(0)
    const write = screen.getByRole('link', { name: 'Write the first one' })
    expect(write).toHaveAttribute('href', '/news/new')

    await user.click(write)
    expect(await screen.findByRole('button', { name: 'Add news' })).toBeInTheDocument()
  })
})

describe('news list: cards', () => {
  it("shows each card's author, title and body", async () => {
    const post = newsItem({ _id: 'quay', title: 'Quay repaired', author: 'Grace Hopper' })
    renderApp({ seed: [post] })

    const card = await screen.findByRole('article', { name: 'Quay repaired' })
    expect(within(card).getByText('Grace Hopper')).toBeInTheDocument()
    expect(within(card).getByRole('heading', { name: 'Quay repaired' })).toBeInTheDocument()
    expect(
      within(card).getByText('Boats are back in the water. The quay has been repaired.'),
    ).toBeInTheDocument()
  })

  it('cuts a long body at a word boundary and ends it with an ellipsis', async () => {
    // 'Lighthouses' spans the 160th character, so a cut by count alone would split it.
    const body = [
      'Boats sail out '.repeat(10),
      'again Lighthouses shine over the water ',
      'and the quay is busy '.repeat(5),
    ].join('')
    renderApp({ seed: [newsItem({ _id: 'long', title: 'Long story', body })] })

    const card = await screen.findByRole('article', { name: 'Long story' })
    const shown = card.querySelector('.news-card-excerpt')?.textContent ?? ''
    expect(shown.endsWith('…')).toBe(true)
    const kept = shown.slice(0, -1)
    expect(kept.length).toBeGreaterThan(100)
    expect(kept.length).toBeLessThanOrEqual(160)
    expect(body.startsWith(kept)).toBe(true)
    expect(body[kept.length]).toBe(' ')
    expect(within(card).queryByText(body)).not.toBeInTheDocument()
  })

  it('gives every card the same 250px-high image with its width and height', async () => {
    renderApp({ seed: manyNews(5) })
    await screen.findByText('Post number 5')

    const images = cards().map(imageOf)
    expect(images).toHaveLength(5)
    const sources = new Set(images.map((image) => image.getAttribute('src')))
    expect(sources.size).toBe(1)
    expect([...sources][0]).toMatch(/^https:\/\//)
    for (const image of images) {
      expect(image).toHaveAttribute('height', '250')
      expect(image).toHaveAttribute('width')
      expect(image).toHaveClass('news-card-image')
    }
    expect(declarationsOf('.news-card-image')).toMatchObject({ height: '250px', width: '100%' })
  })

  it('loads the first three card images at once and the rest lazily', async () => {
    renderApp({ seed: manyNews(6) })
    await screen.findByText('Post number 6')

    const loading = cards().map((card) => imageOf(card).getAttribute('loading'))
    expect(loading).toEqual(['eager', 'eager', 'eager', 'lazy', 'lazy', 'lazy'])
  })

  it('shows the local image when a card image fails to load', async () => {
    renderApp({ seed: manyNews(2) })
    await screen.findByText('Post number 2')
    const [first, second] = cards().map(imageOf)
    if (first === undefined || second === undefined) throw new Error('two cards expected')
    const remote = first.getAttribute('src')

    fireEvent.error(first)

    // The local picture is the stylesheet's background beneath it; the source stays as it was.
    expect(first).toHaveAttribute('data-fallback')
    expect(first).toHaveAttribute('src', remote)
    expect(second).not.toHaveAttribute('data-fallback')
  })

  it("links each card's Read More to its article", async () => {
    const { user } = renderApp({ seed: manyNews(3) })
    await screen.findByText('Post number 3')

    for (const card of cards()) {
      const link = within(card).getByRole('link', { name: /^Read More/ })
      expect(link).toHaveAttribute('href', `/news/post-${postNumber(card)}`)
    }

    const second = screen.getByRole('article', { name: 'Post number 2' })
    await user.click(within(second).getByRole('link', { name: /^Read More/ }))
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Post number 2' }),
    ).toBeInTheDocument()
    expect(screen.getByText('Body of post 2.')).toBeInTheDocument()
  })
})

describe('news list: grid', () => {
  const width = window.innerWidth
  afterEach(() => {
    window.innerWidth = width
  })

  it.each([
    { screenWidth: 1280, columns: 3 },
    { screenWidth: 800, columns: 2 },
    { screenWidth: 400, columns: 1 },
  ])('lays the cards out in $columns masonry columns $screenWidth px wide', async (layout) => {
    window.innerWidth = layout.screenWidth
    const { container } = renderApp({ seed: manyNews(6) })
    await screen.findByText('Post number 6')

    expect(container.querySelectorAll('.news-grid-column')).toHaveLength(layout.columns)
  })

  it('is a feed that owns the cards in the order of the posts, though its columns hold them in turn', async () => {
    window.innerWidth = 1280
    renderApp({ seed: manyNews(7) })
    await screen.findByText('Post number 7')

    expect(cardsInDom().map(postNumber)).toEqual([1, 4, 7, 2, 5, 3, 6])
    expect(screen.getByRole('feed', { name: 'Latest news' })).toBeInTheDocument()
    expect(cards().map(postNumber)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(cards().map((card) => card.getAttribute('aria-posinset'))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ])
    // Every post fits on the first page: the feed knows its length.
    expect(cards().map((card) => card.getAttribute('aria-setsize'))).toEqual(Array(7).fill('7'))
    expect(cards()[1]).toHaveAccessibleName('Post number 2')
  })

  it('says the feed’s length is unknown while more pages may load', async () => {
    renderApp({ seed: manyNews(30) })
    await screen.findByText('Post number 24')

    expect(new Set(cards().map((card) => card.getAttribute('aria-setsize')))).toEqual(
      new Set(['-1']),
    )
  })

  it('is one Tab stop, the first card; the keys move the focus in the order of the posts', async () => {
    window.innerWidth = 1280
    const { user } = renderApp({ seed: manyNews(7) })
    await screen.findByText('Post number 7')
    const links = screen.getAllByRole('link', { name: /^Read More/ })
    expect(links.map((link) => link.tabIndex)).toEqual(Array(7).fill(-1))
    expect(cards().map((card) => card.tabIndex)).toEqual([0, -1, -1, -1, -1, -1, -1])

    screen.getByRole('main').focus()
    await user.tab()
    expect(cards()[0]).toHaveFocus()
    const path: number[] = []
    for (const key of ['ArrowDown', 'ArrowRight', 'PageDown', 'End', 'ArrowUp', 'ArrowLeft']) {
      await user.keyboard(`{${key}}`)
      path.push(postNumber(document.activeElement as HTMLElement))
    }
    expect(path).toEqual([2, 3, 4, 7, 6, 5])
    await user.keyboard('{PageUp}{Home}{ArrowUp}')
    expect(cards()[0]).toHaveFocus()

    // The focused card is the Tab stop: Tab leaves the grid, Shift+Tab comes back to it.
    await user.keyboard('{End}')
    expect(cards().map((card) => card.tabIndex)).toEqual([-1, -1, -1, -1, -1, -1, 0])
    await user.tab()
    expect(document.activeElement?.closest('[role="feed"]')).toBeNull()
    await user.tab({ shift: true })
    expect(cards()[6]).toHaveFocus()

    await user.keyboard('{Enter}')
    expect(await screen.findByRole('heading', { level: 1, name: 'Post number 7' })).toBeVisible()
  })

  it('adds the cards of the next page to the feed, in order, the keys going on into them', async () => {
    window.innerWidth = 1280
    const { user } = renderApp({ seed: manyNews(30) })
    await screen.findByText('Post number 24')
    cards()[23]?.focus()

    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await screen.findByText('Post number 30')).toBeInTheDocument()
    cards()[23]?.focus()
    await user.keyboard('{ArrowDown}')

    expect(cards()[24]).toHaveFocus()
    expect(cards().map(postNumber)).toEqual(Array.from({ length: 30 }, (_, index) => index + 1))
    expect(cards().map((card) => card.getAttribute('aria-setsize'))).toEqual(Array(30).fill('30'))
  })
})

describe('news list: paging', () => {
  it('opens at the page its address names (?cursor=), and Home opens the first page', async () => {
    const app = createMemoryApp({ seed: manyNews(30) })
    const first = await app.useCases.listNews.execute({})
    if (!first.ok || first.value.next === undefined) throw new Error('no second page')
    const { user } = renderApp({ app, path: `/?cursor=${first.value.next}` })

    expect(await screen.findByText('Post number 25')).toBeInTheDocument()
    expect(cards().map(postNumber)).toEqual([25, 26, 27, 28, 29, 30])

    await user.click(screen.getByRole('link', { name: 'Home' }))
    expect(await screen.findByText('Post number 1')).toBeInTheDocument()
    expect(cards()).toHaveLength(24)
  })

  it('shows no Load more button when every post fits on the first page', async () => {
    renderApp({ seed: manyNews(24) })
    await screen.findByText('Post number 24')

    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })
})
