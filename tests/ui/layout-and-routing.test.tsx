// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react'
import { findToast, newsItem, renderApp } from './support/render-app'

const post = newsItem({ _id: 'harbour-1', title: 'Harbour reopens after the storm' })

/** Each route, what shows once its screen is there, and the tab title it sets. */
const routes = [
  {
    path: '/',
    ready: () => screen.findByRole('heading', { name: post.title }),
    title: 'Latest news | NewsWire',
  },
  {
    path: '/news/new',
    ready: () => screen.findByRole('button', { name: 'Add news' }),
    title: 'Add news | NewsWire',
  },
  {
    path: '/news/harbour-1',
    ready: () => screen.findByRole('heading', { level: 1, name: post.title }),
    title: `${post.title} | NewsWire`,
  },
  {
    path: '/news/harbour-1/edit',
    ready: () => screen.findByRole('button', { name: 'Edit news' }),
    title: 'Edit news | NewsWire',
  },
  {
    path: '/contact',
    ready: () => screen.findByRole('button', { name: 'Submit' }),
    title: 'Contact us | NewsWire',
  },
]

beforeEach(() => {
  document.title = ''
})

describe('layout', () => {
  it.each(routes)('shows the header and the nav, and names the tab, on $path', async (route) => {
    const { path, ready, title } = route
    renderApp({ path, seed: [post] })
    await ready()

    expect(screen.getByText('NewsWire')).toBeInTheDocument()
    expect(screen.getByText('Discover the world through our news')).toBeInTheDocument()
    const banner = screen.getByRole('link', { name: 'NewsWire home' })
    expect(banner).toHaveAttribute('href', '/')
    expect(within(banner).getByRole('img', { name: 'NewsWire home' })).toBeInTheDocument()

    const nav = within(screen.getByRole('navigation', { name: 'Main' }))
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Home',
      'New News',
      'Contact',
    ])
    expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/')
    expect(nav.getByRole('link', { name: 'New News' })).toHaveAttribute('href', '/news/new')
    expect(nav.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact')
    await waitFor(() => expect(document.title).toBe(title))
  })

  it('marks the nav link of the current page', async () => {
    renderApp({ path: '/contact', seed: [post] })
    await screen.findByRole('button', { name: 'Submit' })

    const nav = within(screen.getByRole('navigation', { name: 'Main' }))
    expect(nav.getByRole('link', { name: 'Contact' })).toHaveAttribute('aria-current', 'page')
    expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current')
  })
})

describe('navigation', () => {
  it('opens the contact form and the add form from the nav, and the list from the banner', async () => {
    const { user } = renderApp({ path: '/', seed: [post] })
    await screen.findByRole('heading', { name: post.title })
    const nav = within(screen.getByRole('navigation', { name: 'Main' }))

    await user.click(nav.getByRole('link', { name: 'Contact' }))
    expect(await screen.findByRole('heading', { name: 'Contact us' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: post.title })).not.toBeInTheDocument()

    await user.click(nav.getByRole('link', { name: 'New News' }))
    expect(await screen.findByRole('heading', { name: 'Add news' })).toBeInTheDocument()

    await user.click(screen.getByRole('link', { name: 'NewsWire home' }))
    expect(await screen.findByRole('heading', { name: post.title })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Add news' })).not.toBeInTheDocument()
  })

  it.each(['/nope/deeper', '/news', '/contact/extra'])(
    'shows the not-available toast and the list for the unknown path %s',
    async (path) => {
      renderApp({ path, seed: [post] })

      await findToast('sorry, this page is not available')
      expect(await screen.findByRole('heading', { name: post.title })).toBeInTheDocument()
      await waitFor(() => expect(document.title).toBe('Latest news | NewsWire'))
    },
  )

  it('asks for one error toast for an unknown path', async () => {
    const showToast = vi.fn()
    renderApp({ path: '/nope/deeper', seed: [post], effects: { showToast } })

    await screen.findByRole('heading', { name: post.title })
    expect(showToast).toHaveBeenCalledTimes(1)
    expect(showToast).toHaveBeenCalledWith({
      kind: 'error',
      message: 'sorry, this page is not available',
    })
  })
})
