// @vitest-environment jsdom
import { screen } from '@testing-library/react'
import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { newsListModel } from '../model/models'
import { describeScreenPaths, pressing, type ScreenDriver } from './support/screen-paths'
import { manyNews } from './support/render-app'

// Two pages: a full first page, and the rest.
const POSTS = manyNews(DEFAULT_PAGE_SIZE + 6)
// A reload follows a reset of the live stream, not a button: tests/ui/live-updates.test.tsx
// takes it through the screen.
const LIVE = ['newsList on news.reload #1']

const driver: ScreenDriver = {
  open: () => ({ url: '/', seed: POSTS }),
  act: pressing({ 'news.retry': 'Retry', 'news.loadMore': 'Load more' }),
  see: {
    loading: async () => {
      // Nothing shows in the grid while the news loads.
      expect(screen.getByRole('status')).toHaveTextContent('Loading news…')
      expect(screen.queryByRole('article')).not.toBeInTheDocument()
      expect(document.querySelector('.news-grid')).toBeNull()
      expect(screen.queryByText(/no news posts/i)).not.toBeInTheDocument()
      expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    },
    failed: async () => {
      expect(screen.getByRole('alert')).toHaveTextContent('The news could not be loaded.')
      expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled()
    },
    ready: async ({ expected }) => {
      const more = expected.context.next !== undefined
      const shown = more ? DEFAULT_PAGE_SIZE : POSTS.length
      expect(await screen.findAllByRole('article')).toHaveLength(shown)
      expect(screen.getByRole('heading', { name: 'Post number 1' })).toBeInTheDocument()
      // No failure is left on screen.
      expect(screen.queryByText(/could not be loaded/)).not.toBeInTheDocument()
      if (more) expect(screen.getByRole('button', { name: 'Load more' })).toBeEnabled()
      else expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    },
    loadingMore: async () => {
      expect(screen.getByRole('button', { name: 'Loading…' })).toBeDisabled()
      expect(screen.getAllByRole('article')).toHaveLength(DEFAULT_PAGE_SIZE)
    },
    loadMoreFailed: async () => {
      expect(screen.getByRole('alert')).toHaveTextContent('More news could not be loaded.')
      expect(screen.getAllByRole('article')).toHaveLength(DEFAULT_PAGE_SIZE)
      expect(screen.getByRole('button', { name: 'Load more' })).toBeEnabled()
    },
  },
}

describeScreenPaths(
  'news list: shows what each state of its machine means, along every path',
  newsListModel,
  driver,
  {
    reproducible: (_, event) => event.type !== 'news.reload',
    covers: 'reaches every state, and every transition a button can take, through the screen',
    missed: { transitions: LIVE },
  },
)
