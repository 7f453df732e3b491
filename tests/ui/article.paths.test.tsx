// @vitest-environment jsdom
import { screen, within } from '@testing-library/react'
import { PROTECTED_NOTE } from '@/ui/features/article/article.page'
import { NOTICES, TOAST_ACTIONS } from '@/ui/shared/notices'
import { articleModel, HARBOUR } from '../model/models'
import {
  CHANGE_MEANWHILE,
  describeScreenPaths,
  meetsNotFound,
  pressing,
  type ScreenDriver,
  seeLocation,
  seeToast,
} from './support/screen-paths'
import { findToast } from './support/render-app'

const model = articleModel(HARBOUR._id)
// 'Show the new version' shows only when the live stream told of an edit, and a reset reloads:
// tests/ui/live-updates.test.tsx takes the article's refresh through the screen.
// A post in the trash (and its Restore) is taken through the screen in Chromium instead, by
// tests/e2e/trashed-post.spec.ts: the in-memory adapters here cannot trash the post mid-path.
const LIVE_STATES = ['article.inTrash', 'article.restoring', 'article.refreshing']
const LIVE = [
  'article.loading on xstate.error.actor.0.article.loading #1',
  'article.inTrash on article.restore #1',
  'article.restoring on xstate.done.actor.0.article.restoring #1',
  'article.restoring on xstate.error.actor.0.article.restoring #1',
  'article.restoring on xstate.error.actor.0.article.restoring #2',
  'article.restoring on xstate.error.actor.0.article.restoring #3',
  'article.viewing on article.refresh #1',
  'article.refreshing on xstate.done.actor.0.article.refreshing #1',
  'article.refreshing on xstate.error.actor.0.article.refreshing #1',
  'article.refreshing on xstate.error.actor.0.article.refreshing #2',
]

const driver: ScreenDriver = {
  open: (path) => ({
    // A path where the post turns out not to exist opens the address of a post nobody wrote.
    url: `/news/${meetsNotFound(path) ? 'news-nobody-wrote' : HARBOUR._id}`,
    seed: [HARBOUR],
  }),
  act: pressing({ 'article.retry': 'Retry', 'article.delete': 'Delete' }),
  see: {
    loading: async () => {
      // Nothing of the article shows until it has loaded.
      expect(screen.getByRole('status')).toHaveTextContent('Loading the article…')
      expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument()
      expect(screen.queryByText(/Created By/)).not.toBeInTheDocument()
      expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
    },
    failed: async () => {
      expect(screen.getByRole('alert')).toHaveTextContent('The article could not be loaded.')
      // The page keeps a heading for screen readers, but shows nothing of the post.
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Article')
      expect(screen.queryByText(HARBOUR.title)).not.toBeInTheDocument()
    },
    viewing: async ({ event, screen: { app } }) => {
      expect(screen.queryByText('The article could not be loaded.')).not.toBeInTheDocument()
      const code = (event as { error?: { code?: string } }).error?.code
      if (code === 'Stale') {
        // Nothing was deleted: the article shows the stored post, and the toast offers a review.
        expect(
          await screen.findByRole('heading', { level: 1, name: CHANGE_MEANWHILE.title }),
        ).toBeInTheDocument()
        const toast = await findToast(NOTICES.deleteConflict)
        expect(within(toast).getByRole('button', { name: TOAST_ACTIONS.review })).toBeEnabled()
        return
      }
      expect(
        await screen.findByRole('heading', { level: 1, name: HARBOUR.title }),
      ).toBeInTheDocument()
      // The author sits in its own <bdi>: the line is read as a whole.
      const byline = screen.getByText((_, element) =>
        Boolean(element?.classList.contains('article-byline')),
      )
      expect(byline.textContent).toBe(`Created By: ${HARBOUR.author} | 2025/03/03`)
      expect(screen.getByText(HARBOUR.body)).toBeInTheDocument()
      expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute(
        'href',
        `/news/${HARBOUR._id}/edit`,
      )
      expect(screen.getByRole('link', { name: 'History' })).toHaveAttribute(
        'href',
        `/news/${HARBOUR._id}/history`,
      )
      expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled()
      // Nobody protected it: no note says so.
      expect(screen.queryByText(PROTECTED_NOTE)).not.toBeInTheDocument()
      if (event.type.startsWith('xstate.error.')) {
        // The delete failed: the post stays, and the toast says so as an error.
        expect(await findToast(NOTICES.deleteFailed)).toHaveClass('Toastify__toast--error')
        expect(screen.queryByText(NOTICES.deleted)).not.toBeInTheDocument()
        expect(await app.journal.get(HARBOUR._id)).toEqual(HARBOUR)
      }
    },
    deleting: async () => {
      expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled()
    },
    deleted: async () => {
      const toast = await findToast(NOTICES.deleted)
      expect(within(toast).getByRole('button', { name: TOAST_ACTIONS.undo })).toBeEnabled()
      await seeLocation('/')
    },
    notAvailable: async () => {
      await seeToast(NOTICES.notAvailable)
      await seeLocation('/')
    },
  },
}

describeScreenPaths(
  'article: shows what each state of its machine means, along every path',
  model,
  driver,
  {
    reproducible: (_, event) =>
      event.type !== 'article.refresh' &&
      (event as { error?: { trashed?: unknown } }).error?.trashed === undefined,
    covers: 'reaches every state and transition through the screen',
    missed: { states: LIVE_STATES, transitions: LIVE },
  },
)
