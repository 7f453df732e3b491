import { DEFAULT_HISTORY_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import type { HistoryContext } from '@/ui/features/history/history.machine'
import { provideHistory } from '@/ui/features/history/history.provide'
import { NOTICES } from '@/ui/shared/notices'
import {
  FIRST_HISTORY_PAGE,
  historyModel,
  LAST_HISTORY_PAGE,
  POST_ID,
  RESTORED_ITEM,
  RETRY_AFTER,
  REVISIONS,
} from './recovery-models'
import { describeModelPaths, pendingArgs, type StateChecks } from './machine-rig'

const errorOf = (event: object) => (event as { error?: { code: string; reason?: string } }).error

const checks: StateChecks = {
  loading: ({ event, rig, effects }) => {
    // The newest page, with no cursor, also after a restore.
    expect(pendingArgs(rig.news, 'revisions')).toEqual([
      [POST_ID, { limit: DEFAULT_HISTORY_PAGE_SIZE }],
    ])
    // After a restore: its toast, and the article's copy in the store is the restored post.
    const afterRestore = event.type.startsWith('xstate.done.actor')
    expect(effects.toasts).toEqual(
      afterRestore ? [{ kind: 'success', message: NOTICES.versionRestored }] : [],
    )
    if (afterRestore) {
      expect(rig.services.store.getSnapshot().context.newsItem).toEqual(RESTORED_ITEM)
    }
  },
  failed: ({ snapshot, effects }) => {
    expect(effects.toasts).toEqual([])
    expect((snapshot.context as HistoryContext).restoring).toBeUndefined()
  },
  loadingMore: ({ snapshot, rig, effects }) => {
    // The page after the one shown, which stays on screen meanwhile.
    expect(pendingArgs(rig.news, 'revisions')).toEqual([
      [POST_ID, { cursor: FIRST_HISTORY_PAGE.next, limit: DEFAULT_HISTORY_PAGE_SIZE }],
    ])
    expect((snapshot.context as HistoryContext).revisions).toEqual(FIRST_HISTORY_PAGE.items)
    expect(effects.toasts).toEqual([])
  },
  loadMoreFailed: ({ snapshot, effects }) => {
    const context = snapshot.context as HistoryContext
    // Nothing shown is lost, and the same page can be asked for again.
    expect(context.revisions).toEqual(FIRST_HISTORY_PAGE.items)
    expect(context.next).toBe(FIRST_HISTORY_PAGE.next)
    expect(effects.toasts).toEqual([])
  },
  notAvailable: ({ effects }) => {
    expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.notAvailable }])
    // Home, in place of this page in the browser's history.
    expect(effects.navigations).toEqual([expect.objectContaining({ to: '/' })])
  },
  ready: ({ event, snapshot, rig, effects }) => {
    const context = snapshot.context as HistoryContext
    // The newest page, or every version once the older page came, each once and in order.
    expect([FIRST_HISTORY_PAGE.items, REVISIONS]).toContainEqual(context.revisions)
    expect(context.next).toBe(
      context.revisions.length === REVISIONS.length
        ? LAST_HISTORY_PAGE.next
        : FIRST_HISTORY_PAGE.next,
    )
    expect(context.restoring).toBeUndefined()
    const error = errorOf(event)
    const fromRestore = error !== undefined && rig.news.calls.at(-1)?.operation !== 'revisions'
    if (!fromRestore) {
      expect(effects.toasts).toEqual([])
      return
    }
    const message =
      error.reason === 'InTrash'
        ? NOTICES.restoreFromTrashFirst
        : error.code === 'RateLimited'
          ? NOTICES.rateLimited(RETRY_AFTER)
          : NOTICES.restoreFailed
    expect(effects.toasts).toEqual([{ kind: 'error', message }])
  },
  restoring: ({ rig, effects }) => {
    expect(pendingArgs(rig.news, 'restoreRevision')).toEqual([[POST_ID, 2]])
    expect(effects.toasts).toEqual([])
  },
}

describeModelPaths('history machine, model-based', historyModel, provideHistory, {
  checks,
  which: 'oldest',
  also: (paths) => {
    it('never restores the current version', () => {
      const [snapshot] = paths
        .flatMap((path) => path.steps.map((step) => step.state))
        .filter((state) => state.matches('ready'))
      expect(snapshot?.can({ type: 'history.restore', revision: REVISIONS[0]?.revision })).toBe(
        false,
      )
    })

    it('asks for no older page once the first version is shown', () => {
      const [snapshot] = paths
        .flatMap((path) => path.steps.map((step) => step.state))
        .filter((state) => state.matches('ready') && state.context.next === undefined)
      expect(snapshot?.context.revisions).toEqual(REVISIONS)
      expect(snapshot?.can({ type: 'history.loadMore' })).toBe(false)
    })
  },
})
