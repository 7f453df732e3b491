// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react'
import { createMemoryApp } from '../support/memory-app'
import { findByline, findToast, newsItem, renderApp, storedNews } from './support/render-app'
import { declarationsOf } from './support/stylesheet'

const post = newsItem({
  _id: 'harbour-1',
  title: 'Harbour reopens after the storm',
  author: 'Ada Lovelace',
  body: 'Boats are back in the water.\nThe quay has been repaired.',
  createdAt: '2024-03-05T12:00:00.000Z',
})
const other = newsItem({
  _id: 'lighthouse-2',
  title: 'Lighthouse gets a new lamp',
  createdAt: '2024-03-01T12:00:00.000Z',
})

describe('article: loading', () => {
  it('shows nothing of the article until it has loaded', async () => {
    const app = createMemoryApp({ seed: [post] })
    const release = app.news.faults.hold()
    renderApp({ app, path: '/news/harbour-1' })

    expect(await screen.findByText('Loading the article…')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument()
    expect(screen.queryByText(/Created By/)).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()

    release()
    expect(await screen.findByRole('heading', { level: 1, name: post.title })).toBeInTheDocument()
  })

  it.each(['missing-post', 'not%20an%20id'])(
    'leads home with the not-available toast for the unknown id %s',
    async (id) => {
      renderApp({ seed: [other], path: `/news/${id}` })

      await findToast('sorry, this page is not available')
      expect(await screen.findByRole('article', { name: other.title })).toBeInTheDocument()
      expect(screen.queryByRole('heading', { level: 1, name: /./ })).toHaveTextContent(
        'Latest news',
      )
    },
  )
})

describe('article: view', () => {
  it('shows the title as the page heading', async () => {
    renderApp({ seed: [post], path: '/news/harbour-1' })

    const heading = await screen.findByRole('heading', { level: 1 })
    expect(heading).toHaveTextContent(post.title)
  })

  it('shows a 1920x1080 image', async () => {
    renderApp({ seed: [post], path: '/news/harbour-1' })
    const article = await screen.findByRole('article', { name: post.title })

    const image = article.querySelector('img')
    expect(image).toHaveAttribute('width', '1920')
    expect(image).toHaveAttribute('height', '1080')
    expect(image?.getAttribute('src')).toMatch(/^https:\/\/.*1920\/1080/)
  })

  it('shows the author and the creation date as YYYY/MM/DD', async () => {
    renderApp({ seed: [post], path: '/news/harbour-1' })

    expect((await findByline()).textContent).toBe('Created By: Ada Lovelace | 2024/03/05')
  })

  it('shows the body with its line breaks kept', async () => {
    renderApp({ seed: [post], path: '/news/harbour-1' })
    const article = await screen.findByRole('article', { name: post.title })

    const body = within(article).getByText(/Boats are back in the water/)
    expect(body.textContent).toBe('Boats are back in the water.\nThe quay has been repaired.')
    expect(body).toHaveClass('article-body')
    expect(declarationsOf('.article-body')['white-space']).toBe('pre-line')
  })

  it('links Edit to the edit form and offers Delete', async () => {
    const { user } = renderApp({ seed: [post], path: '/news/harbour-1' })
    const article = await screen.findByRole('article', { name: post.title })

    expect(within(article).getByRole('button', { name: 'Delete' })).toBeEnabled()
    const edit = within(article).getByRole('link', { name: 'Edit' })
    expect(edit).toHaveAttribute('href', '/news/harbour-1/edit')

    await user.click(edit)
    expect(await screen.findByRole('button', { name: 'Edit news' })).toBeInTheDocument()
    expect(screen.getByLabelText('Title')).toHaveValue(post.title)
  })

  it('shows markup in a post as text and creates no element from it', async () => {
    const markup = newsItem({
      _id: 'markup',
      title: '<img src=x onerror=alert(1)>',
      author: '<i>Mallory</i>',
      body: '<script>window.hacked = true</script>',
    })
    const { container } = renderApp({ seed: [markup], path: '/news/markup' })

    expect(
      await screen.findByRole('heading', { level: 1, name: '<img src=x onerror=alert(1)>' }),
    ).toBeInTheDocument()
    expect(screen.getByText('<script>window.hacked = true</script>')).toBeInTheDocument()
    expect((await findByline()).textContent).toMatch(/^Created By: <i>Mallory<\/i> \|/)
    expect(container.querySelector('img[src="x"]')).toBeNull()
    expect(container.querySelector('script, i')).toBeNull()
    expect('hacked' in window).toBe(false)
  })
})

describe('article: delete', () => {
  it('deletes the post, says so, and goes back to the list without it', async () => {
    const app = createMemoryApp({ seed: [post, other] })
    const { user } = renderApp({ app, path: '/news/harbour-1' })
    await screen.findByRole('heading', { level: 1, name: post.title })

    await user.click(screen.getByRole('button', { name: 'Delete' }))

    await findToast('successfully deleted news post')
    expect(await screen.findByRole('article', { name: other.title })).toBeInTheDocument()
    expect(screen.queryByRole('article', { name: post.title })).not.toBeInTheDocument()
    expect(screen.queryByText(post.title)).not.toBeInTheDocument()
    expect((await storedNews(app)).map((item) => item._id)).toEqual(['lighthouse-2'])
  })

  it('asks for an error toast and no navigation when the delete fails', async () => {
    const app = createMemoryApp({ seed: [post] })
    app.news.faults.failOn('remove')
    const showToast = vi.fn()
    const navigate = vi.fn()
    const { user } = renderApp({ app, path: '/news/harbour-1', effects: { showToast, navigate } })
    await screen.findByRole('heading', { level: 1, name: post.title })

    await user.click(screen.getByRole('button', { name: 'Delete' }))

    await waitFor(() => expect(showToast).toHaveBeenCalled())
    expect(showToast).toHaveBeenCalledExactlyOnceWith({
      kind: 'error',
      message: 'something went wrong while deleting the post, try again later',
    })
    expect(navigate).not.toHaveBeenCalled()
  })
})
