// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react'
import type { MemoryApp } from '../support/memory-app'
import type { NewsItem } from '@/domain/news-item.entity'
import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { NOTICES } from '@/ui/shared/notices'
import {
  findToast,
  manyNews,
  marketPost,
  newsItem,
  renderApp,
  tickingSite,
  utcMinute,
} from './support/render-app'

const harbour = newsItem()
const market = marketPost
const library = newsItem({
  _id: 'library-3',
  title: 'Library extends its hours',
  author: 'Cleo Dunn',
  createdAt: '2024-03-13T12:00:00.000Z',
})

const site = (seed: readonly NewsItem[]) => tickingSite(seed)

/** Deletes the posts in order: the last one is the newest deletion. */
async function trash(app: MemoryApp, ...posts: readonly NewsItem[]): Promise<void> {
  for (const post of posts) await app.news.remove(post._id)
}

const deletedPosts = () => within(screen.getByRole('list', { name: 'Recently deleted' }))

describe('recently deleted: the list', () => {
  it('lists the trash newest deletion first, with title, author and when each was deleted', async () => {
    const app = site([harbour, market, library])
    await trash(app, market, harbour)
    renderApp({ app, path: '/trash' })

    expect(await screen.findByRole('heading', { level: 1, name: 'Recently deleted' })).toBeVisible()
    await screen.findByRole('list', { name: 'Recently deleted' })
    const items = deletedPosts().getAllByRole('listitem')
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      harbour.title,
      market.title,
    ])
    const [first] = items
    if (first === undefined) throw new Error('no item')
    expect(first).toHaveTextContent(`By ${harbour.author}`)
    const [trashed] = (await app.news.trash({})).items
    const time = within(first).getByText(utcMinute(trashed?.deletedAt))
    expect(time.tagName).toBe('TIME')
    expect(time).toHaveAttribute('dateTime', trashed?.deletedAt)
    // A live post is not in the trash.
    expect(screen.queryByText(library.title)).not.toBeInTheDocument()
    expect(document.title).toBe('Recently deleted | NewsWire')
  })

  it('names each Restore button after its post', async () => {
    const app = site([harbour, market])
    await trash(app, harbour, market)
    renderApp({ app, path: '/trash' })

    expect(
      await screen.findByRole('button', { name: `Restore ${harbour.title}` }),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: `Restore ${market.title}` })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: `History of ${market.title}` })).toHaveAttribute(
      'href',
      `/news/${market._id}/history`,
    )
  })

  it('says the trash is empty, and that deleted posts stay for a limited time', async () => {
    renderApp({ app: site([harbour]), path: '/trash' })

    expect(await screen.findByText('The trash is empty.')).toBeVisible()
    expect(screen.getByText(/Deleted posts wait here for a limited number of days/)).toBeVisible()
    expect(screen.queryByRole('list', { name: 'Recently deleted' })).not.toBeInTheDocument()
  })

  it('loads more deleted posts with Load more', async () => {
    const posts = manyNews(DEFAULT_PAGE_SIZE + 3)
    const app = site(posts)
    await trash(app, ...posts)
    const { user } = renderApp({ app, path: '/trash' })

    await screen.findByRole('list', { name: 'Recently deleted' })
    expect(deletedPosts().getAllByRole('listitem')).toHaveLength(DEFAULT_PAGE_SIZE)
    await user.click(screen.getByRole('button', { name: 'Load more' }))

    await waitFor(() =>
      expect(deletedPosts().getAllByRole('listitem')).toHaveLength(DEFAULT_PAGE_SIZE + 3),
    )
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    // The first post deleted is the oldest deletion: last in the list.
    expect(deletedPosts().getAllByRole('listitem').at(-1)).toHaveTextContent('Post number 1')
  })
})

describe('recently deleted: restore', () => {
  it('restores a post: it leaves the list, the toast says so, and a link leads to it', async () => {
    const app = site([harbour, market])
    await trash(app, harbour, market)
    const { user } = renderApp({ app, path: '/trash' })

    await user.click(await screen.findByRole('button', { name: `Restore ${harbour.title}` }))

    await findToast(NOTICES.restored)
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: harbour.title })).not.toBeInTheDocument(),
    )
    expect(deletedPosts().getAllByRole('listitem')).toHaveLength(1)
    expect(await app.news.get(harbour._id)).toMatchObject({ title: harbour.title })

    const link = screen.getByRole('link', { name: harbour.title })
    expect(link).toHaveAttribute('href', '/news/harbour-1')
    // The keyboard focus was on the button that left: it moves to the note about the post.
    expect(link.closest('p')).toHaveFocus()
    expect(link.closest('p')).toHaveTextContent(`“${harbour.title}” is back.`)

    await user.click(link)
    expect(await screen.findByRole('heading', { level: 1, name: harbour.title })).toBeVisible()
  })

  it('shows a restored post on the home page', async () => {
    const app = site([harbour, market])
    await trash(app, harbour)
    const { user } = renderApp({ app, path: '/trash' })

    await user.click(await screen.findByRole('button', { name: `Restore ${harbour.title}` }))
    await findToast(NOTICES.restored)
    await user.click(screen.getByRole('link', { name: 'Home' }))

    expect(await screen.findByRole('article', { name: harbour.title })).toBeVisible()
    expect(screen.getByRole('article', { name: market.title })).toBeVisible()
  })
})

describe('recently deleted: the footer', () => {
  it('links to Recently deleted from the footer of every page', async () => {
    const app = site([harbour])
    await trash(app, harbour)
    const { user } = renderApp({ app, path: '/' })

    const footer = await screen.findByRole('contentinfo')
    await user.click(within(footer).getByRole('link', { name: 'Recently deleted' }))

    expect(await screen.findByRole('heading', { level: 1, name: 'Recently deleted' })).toBeVisible()
    expect(await screen.findByRole('heading', { level: 2, name: harbour.title })).toBeVisible()
  })
})
