// @vitest-environment jsdom
import { screen, within } from '@testing-library/react'
import type { MemoryApp } from '../support/memory-app'
import { DEFAULT_HISTORY_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { NOTICES } from '@/ui/shared/notices'
import { payload } from '../model/model-harness'
import { historyModel } from '../model/recovery-models'
import {
  describeScreenPaths,
  press,
  type ScreenDriver,
  seeLocation,
  seeToast,
} from './support/screen-paths'
import { manyNews } from './support/render-app'

const [POST] = manyNews(1)
if (POST === undefined) throw new Error('no post')

/** Gone for good: moved to the trash, then purged. */
const purge = async (app: MemoryApp): Promise<void> => {
  await app.journal.remove(POST._id)
  await app.journal.purge(-1)
}

/** More versions than one page holds, so that the older ones wait behind 'Load more'. */
const VERSIONS = DEFAULT_HISTORY_PAGE_SIZE + 3

const versions = () => within(screen.getByRole('list', { name: 'Versions, newest first' }))
/** The newest version but the current one: always on the first page. */
const olderVersion = () => versions().getAllByRole('article')[1] as HTMLElement
const restoreOlder = () => within(olderVersion()).getByRole('button')
const loadMore = () => screen.getByRole('button', { name: /^(Load more|Loading…)$/ })

const driver: ScreenDriver = {
  open: () => ({ url: `/news/${POST._id}/history`, seed: [POST] }),
  arrange: async (app) => {
    for (let revision = 2; revision < VERSIONS; revision += 1) {
      await app.news.update(POST._id, { title: `The title, edit ${revision}` })
    }
    await app.news.update(POST._id, { body: 'The body, edited.' })
  },
  answer: {
    listRevisions: async ({ app, news }, error) => {
      if (error?.code === 'NotFound') await purge(app)
      news.open(error?.code === 'Unavailable' ? 'revisions' : undefined)
    },
    restoreRevision: async ({ app, news }, error) => {
      if (error?.code === 'Conflict') await app.journal.remove(POST._id)
      if (error?.code === 'NotFound') await purge(app)
      news.open(error?.code === 'Unavailable' ? 'restoreRevision' : undefined)
    },
  },
  act: {
    'history.retry': press('Retry'),
    'history.loadMore': async ({ screen: { user } }) => {
      // From the keyboard: the button is reachable and pressed with Enter.
      loadMore().focus()
      await user.keyboard('{Enter}')
    },
    'history.restore': async ({ screen: { user } }) => {
      await user.click(within(olderVersion()).getByRole('button', { name: 'Restore this version' }))
    },
  },
  see: {
    loading: async ({ event }) => {
      const output = payload<object | undefined>(event, 'output')
      if (output === undefined) {
        expect(screen.getByRole('status')).toHaveTextContent('Loading the history…')
        return
      }
      // After a restore: the toast, and the versions stay on screen while they load again.
      await seeToast(NOTICES.versionRestored)
      expect(screen.getByRole('region', { name: /^History of/ })).toHaveAttribute(
        'aria-busy',
        'true',
      )
      expect(versions().getAllByRole('listitem').length).toBeGreaterThanOrEqual(3)
    },
    failed: async () => {
      expect(screen.getByRole('alert')).toHaveTextContent('The history could not be loaded.')
      expect(screen.getByRole('button', { name: 'Retry' })).toBeVisible()
      // The page keeps a heading for screen readers, but shows nothing of the post.
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('History')
    },
    notAvailable: async () => {
      await seeToast(NOTICES.notAvailable)
      await seeLocation('/')
    },
    loadingMore: async () => {
      expect(loadMore()).toHaveTextContent('Loading…')
      expect(loadMore()).toHaveAttribute('aria-busy', 'true')
      expect(loadMore()).toHaveFocus()
      expect(screen.getByRole('region', { name: /^History of/ })).toHaveAttribute(
        'aria-busy',
        'true',
      )
      // The versions shown stay while the older ones come.
      expect(versions().getAllByRole('article')).toHaveLength(DEFAULT_HISTORY_PAGE_SIZE)
    },
    loadMoreFailed: async () => {
      expect(screen.getByText(/^Older versions could not be loaded\./)).toBeVisible()
      expect(loadMore()).toHaveTextContent('Load more')
      expect(loadMore()).toHaveFocus()
      // The versions shown stay.
      expect(versions().getAllByRole('article')).toHaveLength(DEFAULT_HISTORY_PAGE_SIZE)
    },
    ready: async ({ event }) => {
      expect(screen.getByRole('heading', { level: 1, name: /^History of “/ })).toBeVisible()
      expect(screen.queryByText(/could not be loaded/)).not.toBeInTheDocument()
      expect(restoreOlder()).toHaveAttribute('aria-busy', 'false')
      const shown = versions().getAllByRole('article')
      const oldest = shown.at(-1) as HTMLElement
      if (shown.length < VERSIONS) {
        // The oldest version shown waits for the one before it to show what it changed.
        expect(shown).toHaveLength(DEFAULT_HISTORY_PAGE_SIZE)
        expect(loadMore()).toHaveAttribute('aria-busy', 'false')
        expect(oldest).toHaveTextContent(/Load more to see what this version changed/)
        expect(oldest.querySelectorAll('ins, del')).toHaveLength(0)
      } else {
        // Every version, down to the first, which has nothing to compare with.
        expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
        expect(oldest).toHaveAccessibleName(/^Version 1: Created/)
        expect(oldest).not.toHaveTextContent(/Load more/)
        expect(oldest.querySelectorAll('ins, del')).toHaveLength(0)
        const second = shown.at(-2) as HTMLElement
        expect(within(second).getByText('The title, edit 2', { selector: 'ins' })).toBeVisible()
      }
      const error = payload<{ code: string } | undefined>(event, 'error')
      if (error === undefined) {
        expect(versions().getByRole('heading', { name: /\(current\)$/ })).toBeVisible()
        return
      }
      await seeToast(
        error.code === 'Conflict' ? NOTICES.restoreFromTrashFirst : NOTICES.restoreFailed,
      )
    },
    restoring: async () => {
      expect(restoreOlder()).toHaveAttribute('aria-busy', 'true')
      expect(restoreOlder()).toHaveTextContent('Restoring…')
      expect(restoreOlder()).toHaveFocus()
    },
  },
}

describeScreenPaths(
  'history: shows what each state of its machine means, along every path',
  historyModel,
  driver,
)
