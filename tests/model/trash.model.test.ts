import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import type { TrashContext } from '@/ui/features/trash/trash.machine'
import { provideTrash } from '@/ui/features/trash/trash.provide'
import { NOTICES } from '@/ui/shared/notices'
import { FIRST_TRASH_PAGE, LAST_TRASH_PAGE, PIER, RETRY_AFTER, trashModel } from './recovery-models'
import { describeModelPaths, pendingArgs, type StateChecks } from './machine-rig'

/** What the toast says after a restore answered as `event` says; none for other events. */
function restoreToast(type: string, error?: { code: string; reason?: string }) {
  if (!type.startsWith('xstate.done.actor') && !type.startsWith('xstate.error.actor')) return []
  if (error === undefined || error.reason === 'NotInTrash') {
    return [{ kind: 'success', message: NOTICES.restored }]
  }
  if (error.code === 'NotFound') return [{ kind: 'error', message: NOTICES.purged }]
  if (error.code === 'RateLimited') {
    return [{ kind: 'error', message: NOTICES.rateLimited(RETRY_AFTER) }]
  }
  return [{ kind: 'error', message: NOTICES.restoreFailed }]
}

const checks: StateChecks = {
  loading: ({ rig }) => {
    expect(pendingArgs(rig.news, 'trash')).toEqual([[{ limit: DEFAULT_PAGE_SIZE }]])
  },
  failed: ({ snapshot, effects }) => {
    expect((snapshot.context as TrashContext).items).toEqual([])
    expect(effects.toasts).toEqual([])
  },
  loadingMore: ({ rig }) => {
    expect(pendingArgs(rig.news, 'trash')).toEqual([
      [{ cursor: FIRST_TRASH_PAGE.next, limit: DEFAULT_PAGE_SIZE }],
    ])
  },
  restoring: ({ rig, effects }) => {
    expect(pendingArgs(rig.news, 'restore')).toEqual([[PIER._id]])
    expect(effects.toasts).toEqual([])
  },
  ready: ({ event, snapshot, effects }) => {
    const context = snapshot.context as TrashContext
    const loaded = [...FIRST_TRASH_PAGE.items, ...(context.next ? [] : LAST_TRASH_PAGE.items)]
    const error = (event as { error?: { code: string; reason?: string } }).error
    const fromRestore = 'output' in event ? !('items' in (event.output as object)) : !!error
    expect(effects.toasts).toEqual(fromRestore ? restoreToast(event.type, error) : [])
    // Listed: the pages loaded so far, in order; only PIER may have left (back, or purged).
    expect(context.items).toEqual(
      loaded.filter((item) => item._id !== PIER._id || context.items.includes(item)),
    )
    if (fromRestore) {
      const kept = error?.code === 'Unavailable' || error?.code === 'RateLimited'
      expect(context.items.some((item) => item._id === PIER._id)).toBe(kept)
      expect(context.restored?.id === PIER._id).toBe(!error || error.reason === 'NotInTrash')
    }
    expect(context.restoring).toBeUndefined()
  },
}

describeModelPaths('trash machine, model-based', trashModel, provideTrash, {
  checks,
  which: 'oldest',
})
