// @vitest-environment jsdom
import { screen, within } from '@testing-library/react'
import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { NOTICES } from '@/ui/shared/notices'
import { payload } from '../model/model-harness'
import { trashModel } from '../model/recovery-models'
import { describeScreenPaths, press, type ScreenDriver, seeToast } from './support/screen-paths'
import { manyNews } from './support/render-app'

// Two pages of trash: a full first page, and the rest.
const POSTS = manyNews(DEFAULT_PAGE_SIZE + 2)
/** Deleted last, so first in the trash: the post the visitor restores. */
const NEWEST = POSTS[0]
if (NEWEST === undefined) throw new Error('no posts')

/** The post's Restore button, which reads 'Restoring…' while it works. */
const restoreButton = () =>
  screen.getByRole('button', { name: new RegExp(`^Restor(e|ing…) ${NEWEST.title}$`) })
const listed = () =>
  within(screen.getByRole('list', { name: 'Recently deleted' })).getAllByRole('listitem')

const driver: ScreenDriver = {
  open: () => ({ url: '/trash', seed: POSTS }),
  arrange: async (app) => {
    for (const post of [...POSTS].reverse()) await app.news.remove(post._id)
  },
  answer: {
    listTrash: async ({ news }, error) => news.open(error === undefined ? undefined : 'trash'),
    restoreNews: async ({ app, news }, error) => {
      if (error?.code === 'Conflict') await app.journal.restore(NEWEST._id)
      if (error?.code === 'NotFound') await app.journal.purge(-1)
      news.open(error?.code === 'Unavailable' ? 'restore' : undefined)
    },
  },
  act: {
    'trash.retry': press('Retry'),
    'trash.loadMore': press('Load more'),
    'trash.restore': async ({ screen: { user } }) => {
      await user.click(restoreButton())
    },
  },
  see: {
    loading: async () => {
      expect(screen.getByRole('status')).toHaveTextContent('Loading the trash…')
      expect(screen.getByRole('region', { name: 'Recently deleted' })).toHaveAttribute(
        'aria-busy',
        'true',
      )
      expect(screen.queryByRole('list', { name: 'Recently deleted' })).not.toBeInTheDocument()
      expect(screen.queryByText('The trash is empty.')).not.toBeInTheDocument()
    },
    failed: async () => {
      expect(screen.getByRole('alert')).toHaveTextContent('The trash could not be loaded.')
      expect(screen.getByRole('button', { name: 'Retry' })).toBeVisible()
      expect(screen.queryByText('The trash is empty.')).not.toBeInTheDocument()
    },
    ready: async ({ event }) => {
      expect(screen.getByRole('heading', { level: 1, name: 'Recently deleted' })).toBeVisible()
      expect(screen.queryByText(/could not be loaded/)).not.toBeInTheDocument()
      expect(screen.getByRole('region', { name: 'Recently deleted' })).toHaveAttribute(
        'aria-busy',
        'false',
      )
      const error = payload<{ code: string; reason?: string } | undefined>(event, 'error')
      const output = payload<object | undefined>(event, 'output')
      const restored = output !== undefined && !('items' in output)
      const restoreFailed = error !== undefined && event.type.includes('restoring')
      if (restored || error?.code === 'Conflict') {
        // Back, by this visitor or meanwhile by someone else: it leaves the list.
        await seeToast(NOTICES.restored)
        expect(screen.queryByRole('heading', { name: NEWEST.title })).not.toBeInTheDocument()
        expect(screen.getByRole('link', { name: NEWEST.title })).toHaveAttribute(
          'href',
          `/news/${NEWEST._id}`,
        )
      } else if (error?.code === 'NotFound') {
        await seeToast(NOTICES.purged)
      } else if (restoreFailed) {
        await seeToast(NOTICES.restoreFailed)
        expect(restoreButton()).toHaveAttribute('aria-busy', 'false')
        expect(screen.queryByText(/is back/)).not.toBeInTheDocument()
      } else {
        expect(listed()).not.toHaveLength(0)
      }
    },
    loadingMore: async () => {
      expect(screen.getByRole('button', { name: 'Loading…' })).toHaveAttribute('aria-busy', 'true')
      expect(listed().length).toBeLessThanOrEqual(DEFAULT_PAGE_SIZE)
    },
    loadMoreFailed: async () => {
      expect(screen.getByRole('alert')).toHaveTextContent('More deleted posts could not be loaded.')
      expect(screen.getByRole('button', { name: 'Load more' })).toBeVisible()
    },
    restoring: async () => {
      expect(restoreButton()).toHaveAttribute('aria-busy', 'true')
      expect(restoreButton()).toHaveAccessibleName(`Restoring… ${NEWEST.title}`)
      // It keeps the keyboard focus while it waits.
      expect(restoreButton()).toHaveFocus()
    },
  },
}

describeScreenPaths(
  'recently deleted: shows what each state of its machine means, along every path',
  trashModel,
  driver,
)
