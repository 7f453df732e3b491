// @vitest-environment jsdom
import { screen, within } from '@testing-library/react'
import { createMemoryApp } from '../support/memory-app'
import { findByline, findToast, newsItem, renderApp, storedNews } from './support/render-app'
import { declarationsOf } from './support/stylesheet'

const post = newsItem()
const other = newsItem({
  _id: 'lighthouse-2',
  title: 'Lighthouse gets a new lamp',
  createdAt: '2024-03-01T12:00:00.000Z',
})

describe('article: unknown ids', () => {
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
  it('shows a 1920x1080 image', async () => {
    renderApp({ seed: [post], path: '/news/harbour-1' })
    const article = await screen.findByRole('article', { name: post.title })

    const image = article.querySelector('img')
    expect(image).toHaveAttribute('width', '1920')
    expect(image).toHaveAttribute('height', '1080')
    expect(image?.getAttribute('src')).toMatch(/^https:\/\/.*1920\/1080/)
  })

  it('shows the body with its line breaks kept', async () => {
    renderApp({ seed: [post], path: '/news/harbour-1' })
    const article = await screen.findByRole('article', { name: post.title })

    const body = within(article).getByText(/Boats are back in the water/)
    expect(body.textContent).toBe('Boats are back in the water.\nThe quay has been repaired.')
    expect(body).toHaveClass('article-body')
    expect(declarationsOf('.article-body')['white-space']).toBe('pre-line')
  })

  it('shows markup in a post as text, on its card and on its page, and creates no element from it', async () => {
    const markup = newsItem({
      _id: 'markup',
      title: '<img src=x onerror=alert(1)>',
      author: '<i>Mallory</i>',
      body: '<script>window.hacked = true</script>',
    })
    const { user, container } = renderApp({ seed: [markup] })
    const noElementFromIt = () =>
      expect(container.querySelector('img[src="x"], script, i')).toBeNull()

    const card = await screen.findByRole('article', { name: markup.title })
    expect(within(card).getByText(markup.author)).toBeInTheDocument()
    expect(within(card).getByText(markup.body)).toBeInTheDocument()
    noElementFromIt()
    await user.click(within(card).getByRole('link', { name: /^Read More/ }))

    expect(await screen.findByRole('heading', { level: 1, name: markup.title })).toBeInTheDocument()
    expect(screen.getByText(markup.body)).toBeInTheDocument()
    expect((await findByline()).textContent).toMatch(/^Created By: <i>Mallory<\/i> \|/)
    noElementFromIt()
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
})
