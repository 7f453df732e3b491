// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { MemoryRouter } from 'react-router-dom'
import { createMemoryApp, type MemoryApp } from '../support/memory-app'
import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import { NewsWireApp } from '@/ui/app/news-wire-app'
import { memoryDraftStorage } from '@/ui/shared/draft-storage'
import { manyNews, renderApp, replace } from './support/render-app'

const NOW = () => new Date('2024-06-01T12:00:00.000Z')
const POSTS = manyNews(3)

function liveApp(): MemoryApp {
  return createMemoryApp({ seed: POSTS, now: NOW })
}

/*
 * Another visitor's changes: made through the same rules as the server's, then told by the live
 * feed as the server's stream would tell them.
 */

async function createElsewhere(app: MemoryApp, n: number): Promise<NewsItem> {
  const draft: NewsDraft = { title: `Fresh post ${n}`, author: `Writer ${n}`, body: `Body ${n}.` }
  const item = await app.journal.create(draft)
  app.changes.publish({ id: item._id, kind: 'created', revision: item.revision })
  return item
}

async function editElsewhere(app: MemoryApp, id: string, changes: NewsChanges) {
  const item = await app.journal.update(id, changes)
  app.changes.publish({ id, kind: 'edited', revision: item.revision })
  return item
}

async function deleteElsewhere(app: MemoryApp, id: string) {
  const before = await app.journal.get(id)
  await app.journal.remove(id)
  app.changes.publish({ id, kind: 'deleted', revision: before.revision + 1 })
}

async function restoreElsewhere(app: MemoryApp, id: string) {
  const item = await app.journal.restore(id)
  app.changes.publish({ id, kind: 'restored', revision: item.revision })
}

/** The cards' titles in the reading order: the order the grid (a feed) owns them in. */
function layout(): string[] {
  const owned = document.querySelector('[role="feed"]')?.getAttribute('aria-owns') ?? ''
  return owned
    .split(' ')
    .map((id) => document.getElementById(id)?.querySelector('h2')?.textContent ?? '')
}

function slotOf(id: string): HTMLElement {
  const slot = [...document.querySelectorAll<HTMLElement>('.news-card-slot')].find(
    (element) => element.dataset.newsId === id,
  )
  if (slot === undefined) throw new Error(`no card for ${id}`)
  return slot
}

/** Lets the feed open and say it is ready. */
async function connected(app: MemoryApp): Promise<void> {
  await waitFor(() => expect(app.changes.openFeeds).toBe(1))
  await new Promise((resolve) => setTimeout(resolve, 0))
}

/** Renders `path` following the live feed, once `shows` finds what it shows and the feed is open. */
async function openLive(path: string, shows: () => Promise<unknown>) {
  const app = liveApp()
  const rendered = renderApp({ app, path, live: true })
  await shows()
  await connected(app)
  return { ...rendered, app }
}

describe('live updates: the list', () => {
  it('offers posts created elsewhere behind a button, and moves nothing until it is pressed', async () => {
    const { app, user } = await openLive('/', () => screen.findByText('Post number 3'))

    const before = layout()
    await createElsewhere(app, 1)
    const button = await screen.findByRole('button', { name: '1 new post' })
    expect(button.closest('[aria-live="polite"]')).not.toBeNull()
    expect(layout()).toEqual(before)

    await createElsewhere(app, 2)
    await user.click(await screen.findByRole('button', { name: '2 new posts' }))

    expect(layout().slice(0, 2)).toEqual(['Fresh post 2', 'Fresh post 1'])
    expect(layout()).toHaveLength(5)
    expect(screen.queryByRole('button', { name: /new post/ })).not.toBeInTheDocument()
    // The reader goes on from the first new post.
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName(/Fresh post 2/))
  })

  it('updates a post edited elsewhere in place', async () => {
    const { app } = await openLive('/', () => screen.findByText('Post number 3'))

    const before = layout()
    await editElsewhere(app, 'post-2', { title: 'Post number 2, corrected' })

    expect(await screen.findByText('Post number 2, corrected')).toBeInTheDocument()
    const moved = before.map((title) =>
      title === 'Post number 2' ? 'Post number 2, corrected' : title,
    )
    expect(layout()).toEqual(moved)
  })

  it('marks a post deleted elsewhere where it stands, and lifts the mark when it is restored', async () => {
    const { app } = await openLive('/', () => screen.findByText('Post number 3'))

    const before = layout()
    await deleteElsewhere(app, 'post-2')

    const slot = slotOf('post-2')
    await waitFor(() => expect(slot).toHaveTextContent('This post was deleted.'))
    expect(layout()).toEqual(before)
    // The card stays, but can no longer be used.
    expect(slot.querySelector('.news-card-frame')).toHaveAttribute('inert')

    await restoreElsewhere(app, 'post-2')
    await waitFor(() => expect(slot).not.toHaveTextContent('This post was deleted.'))
    expect(slot.querySelector('.news-card-frame')).not.toHaveAttribute('inert')
    expect(screen.queryByRole('button', { name: /new post/ })).not.toBeInTheDocument()
  })

  it('loads the first page again when the stream cannot tell what it missed', async () => {
    const { app } = await openLive('/', () => screen.findByText('Post number 3'))

    // Away too long: the changes it missed are no longer kept, so it cannot catch up on them.
    await app.journal.create({ title: 'Missed post', author: 'Writer', body: 'Body.' })
    app.changes.publish({ id: 'unknown-elsewhere', kind: 'created', revision: 1 })
    app.changes.forget()
    app.changes.drop()

    // It reconnects within a second and a half, and reloads by itself.
    await waitFor(() => expect(layout()[0]).toBe('Missed post'), { timeout: 4000 })
    expect(app.changes.opens).toHaveLength(2)
  })
})

describe('live updates: an open article', () => {
  it('says that it was edited elsewhere, and shows the new version when asked', async () => {
    const { app, user } = await openLive('/news/post-1', () =>
      screen.findByRole('heading', { level: 1, name: 'Post number 1' }),
    )

    await editElsewhere(app, 'post-1', { title: 'Post number 1, updated' })

    expect(await screen.findByText('This post was edited elsewhere.')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Post number 1')
    await user.click(screen.getByRole('button', { name: 'Show the new version' }))

    const heading = await screen.findByRole('heading', { level: 1, name: 'Post number 1, updated' })
    expect(screen.queryByText('This post was edited elsewhere.')).not.toBeInTheDocument()
    await waitFor(() => expect(heading).toHaveFocus())
  })

  it('says that it was deleted elsewhere, without Edit or Delete, until it is restored', async () => {
    const { app } = await openLive('/news/post-1', () =>
      screen.findByRole('article', { name: 'Post number 1' }),
    )
    const article = screen.getByRole('article', { name: 'Post number 1' })

    await deleteElsewhere(app, 'post-1')

    expect(await within(article).findByText('This post was deleted.')).toBeInTheDocument()
    expect(within(article).queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument()
    expect(within(article).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
    expect(within(article).getByRole('link', { name: 'History' })).toBeInTheDocument()

    await restoreElsewhere(app, 'post-1')
    await waitFor(() =>
      expect(within(article).queryByText('This post was deleted.')).not.toBeInTheDocument(),
    )
    expect(within(article).getByRole('link', { name: 'Edit' })).toBeInTheDocument()
  })

  it('says nothing of the visitor’s own edit, whichever arrives first', async () => {
    const { app, user } = await openLive('/news/post-1/edit', () => screen.findByLabelText('Title'))
    const title = screen.getByLabelText('Title')
    const release = app.news.faults.hold()

    await replace(user, title, 'Post number 1, mine')
    await user.click(screen.getByRole('button', { name: 'Edit news' }))
    await screen.findByRole('heading', { level: 1, name: 'Post number 1, mine' })
    // The stream tells of the save (revision 2) before its answer arrives…
    app.changes.publish({ id: 'post-1', kind: 'edited', revision: 2 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByText('This post was edited elsewhere.')).not.toBeInTheDocument()

    // …and after it: the article shows revision 2 by then.
    release()
    await waitFor(async () => expect((await app.journal.get('post-1')).revision).toBe(2))
    app.changes.publish({ id: 'post-1', kind: 'edited', revision: 2 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Post number 1, mine')
    expect(screen.queryByText('This post was edited elsewhere.')).not.toBeInTheDocument()
  })

  it('says nothing of its own delete while it is being sent', async () => {
    const { app, user } = await openLive('/news/post-1', () =>
      screen.findByRole('article', { name: 'Post number 1' }),
    )
    const article = screen.getByRole('article', { name: 'Post number 1' })
    const release = app.news.faults.hold()

    await user.click(within(article).getByRole('button', { name: 'Delete' }))
    app.changes.publish({ id: 'post-1', kind: 'deleted', revision: 2 })
    await new Promise((resolve) => setTimeout(resolve, 50))

    expect(within(article).queryByText('This post was deleted.')).not.toBeInTheDocument()
    release()
  })
})

describe('live updates: forms', () => {
  it('keeps what the visitor typed when the post is edited elsewhere, and says so', async () => {
    const { app, user } = await openLive('/news/post-1/edit', () => screen.findByLabelText('Title'))
    const title = screen.getByLabelText('Title')

    await replace(user, title, 'My own title')
    await editElsewhere(app, 'post-1', { title: 'Their title', body: 'Their body.' })

    expect(await screen.findByText(/This post was edited elsewhere\./)).toBeInTheDocument()
    expect(title).toHaveValue('My own title')
    expect(screen.getByLabelText('Body')).toHaveValue('Body of post 1.')
  })
})

describe('live updates: where they run', () => {
  it('opens no stream while the page renders on the server, and one once the app runs', async () => {
    const app = liveApp()
    renderToString(
      <NewsWireApp
        useCases={app.useCases}
        changes={app.changes}
        drafts={memoryDraftStorage()}
        router={({ children }) => <MemoryRouter>{children}</MemoryRouter>}
      />,
    )
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(app.changes.opens).toEqual([])

    const { unmount } = renderApp({ app, live: true })
    await connected(app)
    expect(app.changes.opens).toEqual([undefined])
    unmount()
    expect(app.changes.openFeeds).toBe(0)
  })
})
