// @vitest-environment jsdom
import { screen, within } from '@testing-library/react'
import type { NewsStoreContext } from '@/ui/store/news-store.types'
import { newsStoreMachine } from '@/ui/store/news-store.machine'
import { NOTICES, TOAST_ACTIONS } from '@/ui/shared/notices'
import { CoverageRecorder, itTakesEachPath, expectCoverage } from '../model/model-harness'
import { EDIT_CHANGES, HARBOUR, newsStoreModel } from '../model/models'
import {
  CHANGE_MEANWHILE,
  retype,
  runScreenPath,
  type ScreenDriver,
  screenPaths,
  seeLocation,
  seeToast,
} from './support/screen-paths'
import { findToast } from './support/render-app'

const coverage = new CoverageRecorder(newsStoreMachine)

/**
 * The store has no screen of its own: a visitor drives it through the edit form and the
 * article. Open the edit form (the store gets the post), save an edit (the article shows it
 * at once while the store saves it), and the save succeeds or fails.
 */
const paths = screenPaths(newsStoreModel, (snapshot, event) => {
  if (event.type === 'news.restore') return false
  const { newsItem, pending } = snapshot.context as NewsStoreContext
  if (event.type === 'get_news_by_id') return newsItem === null
  if (event.type === 'news.edit') return newsItem !== null && pending.length === 0
  // Deleted meanwhile: the in-memory adapters hold the post (see DELETED_MEANWHILE below).
  if ((event as { error?: { code?: string } }).error?.code === 'NotFound') return false
  return event.type.startsWith('xstate.')
})
/**
 * The list and the article's delete send these; their screen tests take them. The delete
 * toast's Undo restores: tests/ui/nothing-lost.test.tsx presses it.
 */
const ELSEWHERE = [
  'newsStore on get_news #1',
  // The edit form taking back the text of a refused edit, and an edit of a post deleted
  // meanwhile (below): tests/e2e/drafts-and-review.spec.ts and the machine tests take them.
  'newsStore on news.unsavedTaken #1',
  'newsStore on news.removed #1',
  // The live stream's changes: tests/ui/live-updates.test.tsx takes them through the screens.
  'newsStore on news.changed #1',
  'newsStore on news.reset #1',
  'newsStore on news.showArrivals #1',
  'newsStore on news.gone #1',
  'newsStore.edits.saving on xstate.error.actor.0.newsStore.edits.saving #2',
  // An edit the operator's block or protection refused: tests/ui/moderation.test.tsx.
  'newsStore.edits.saving on xstate.error.actor.0.newsStore.edits.saving #3',
  'newsStore.restores.idle on news.restore #1',
  'newsStore.restores.restoring on xstate.done.actor.0.newsStore.restores.restoring #1',
  'newsStore.restores.restoring on xstate.error.actor.0.newsStore.restores.restoring #1',
  'newsStore.refreshes.idle on always #1',
  'newsStore.refreshes.loading on xstate.done.actor.0.newsStore.refreshes.loading #1',
  'newsStore.refreshes.loading on xstate.error.actor.0.newsStore.refreshes.loading #1',
]
const UNDONE_ELSEWHERE = ['newsStore.restores.restoring', 'newsStore.refreshes.loading']

const driver: ScreenDriver = {
  open: () => ({ url: `/news/${HARBOUR._id}/edit`, seed: [HARBOUR] }),
  act: {
    get_news_by_id: async ({ screen: { news } }) => {
      // The form's code loads lazily: let the load through once it has been asked for.
      await screen.findByText('Loading the post…')
      news.open()
      expect(await screen.findByDisplayValue(HARBOUR.title)).toBeInTheDocument()
    },
    'news.edit': async ({ screen: { user } }) => {
      await retype(user, 'Title', EDIT_CHANGES.title)
      await user.click(screen.getByRole('button', { name: 'Edit news' }))
    },
  },
  see: {
    idle: async ({ event }) => {
      if (event.type === 'xstate.init') {
        expect(await screen.findByText('Loading the post…')).toBeInTheDocument()
      } else if (event.type.startsWith('xstate.done.')) {
        await seeToast(NOTICES.edited)
        expect(
          screen.getByRole('heading', { level: 1, name: EDIT_CHANGES.title }),
        ).toBeInTheDocument()
      } else if ((event as { error?: { code?: string } }).error?.code === 'Stale') {
        // Someone saved the post meanwhile: nothing is overwritten, the article shows the
        // stored post, and the toast offers to review.
        const toast = await findToast(NOTICES.editConflict)
        expect(within(toast).getByRole('button', { name: TOAST_ACTIONS.review })).toBeEnabled()
        expect(
          await screen.findByRole('heading', { level: 1, name: CHANGE_MEANWHILE.title }),
        ).toBeInTheDocument()
      } else if (event.type.startsWith('xstate.error.')) {
        // The save failed: the article shows the stored values again.
        await seeToast(NOTICES.tryAgainLater)
        expect(
          await screen.findByRole('heading', { level: 1, name: HARBOUR.title }),
        ).toBeInTheDocument()
      }
    },
    saving: async () => {
      await seeLocation(`/news/${HARBOUR._id}`)
      expect(
        await screen.findByRole('heading', { level: 1, name: EDIT_CHANGES.title }),
      ).toBeInTheDocument()
    },
  },
}

describe('saving an edit: the edit form and the article show what each state of the store means', () => {
  itTakesEachPath(newsStoreModel, paths, async (path) => {
    await runScreenPath(newsStoreModel, path, driver, coverage)
  })

  it('reaches every state and the edit transitions through the screens', () =>
    expectCoverage(
      coverage,
      { states: UNDONE_ELSEWHERE, transitions: ELSEWHERE },
      'through the screens: ',
    ))
})
