import { provideArticle } from '@/ui/features/article/article.provide'
import type { DomainError } from '@/domain/domain-error'
import { NOTICES, TOAST_ACTIONS } from '@/ui/shared/notices'
import { describeModelPaths, pendingArgs, type StateChecks } from './machine-rig'
import { payload } from './model-harness'
import {
  articleModel,
  HARBOUR,
  HARBOUR_CHANGED,
  HARBOUR_TRASHED,
  RETRY_AFTER_SECONDS,
} from './models'

const model = articleModel(HARBOUR._id)

const checks: StateChecks = {
  loading: ({ rig }) => expect(pendingArgs(rig.news, 'get')).toEqual([[HARBOUR._id]]),
  failed: ({ effects }) => expect(effects.toasts).toEqual([]),
  notAvailable: ({ effects }) => {
    expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.notAvailable }])
    // A redirect replaces the history entry, so that Back never lands on it again.
    expect(effects.navigations).toEqual([{ to: '/', replace: true }])
  },
  viewing: ({ event, rig, effects }) => {
    const shown = rig.services.store.getSnapshot().context.newsItem
    if (event.type.includes('restoring')) {
      // Back from the trash: the article shows it, and says so.
      expect(shown).toEqual(HARBOUR)
      expect(effects.toasts).toEqual([{ kind: 'success', message: NOTICES.restored }])
      return
    }
    if (!event.type.startsWith('xstate.error.')) {
      expect([HARBOUR, HARBOUR_CHANGED]).toContainEqual(shown)
      expect(effects.toasts).toEqual([])
      return
    }
    const error = payload<DomainError>(event, 'error')
    if (event.type.includes('refreshing')) {
      // The new version did not load: the article stays as it was; a post found gone is marked
      // deleted in the store, any other failure says to try again.
      expect(shown).toEqual(HARBOUR)
      if (error.code === 'NotFound') {
        expect(effects.toasts).toEqual([])
        const latest = rig.services.store.getSnapshot().context.latest[HARBOUR._id]
        expect(latest?.deleted).toBe(true)
      } else {
        expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.tryAgainLater }])
      }
      return
    }
    if (error.code === 'Stale') {
      // A delete from a stale copy deletes nothing: the stored post shows, with a way to review.
      expect(shown).toEqual(HARBOUR_CHANGED)
      expect(effects.toasts).toEqual([
        {
          kind: 'error',
          message: NOTICES.deleteConflict,
          action: {
            label: TOAST_ACTIONS.review,
            intent: { type: 'navigate', to: `/news/${HARBOUR._id}/history` },
          },
        },
      ])
    } else if (error.code === 'RateLimited') {
      expect(effects.toasts).toEqual([
        { kind: 'error', message: NOTICES.rateLimited(RETRY_AFTER_SECONDS) },
      ])
    } else {
      expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.deleteFailed }])
    }
    expect(effects.navigations).toEqual([])
  },
  // The post loads again, for its new version.
  refreshing: ({ rig }) => expect(pendingArgs(rig.news, 'get')).toEqual([[HARBOUR._id]]),
  deleting: ({ rig }) =>
    // Only the revision the article showed may be deleted.
    expect(pendingArgs(rig.news, 'remove')).toEqual([
      [HARBOUR._id, { ifRevision: [HARBOUR.revision] }],
    ]),
  // The post is in the trash: the page says where, and offers Restore; nothing leaves for home.
  inTrash: ({ event, effects, snapshot }) => {
    expect(snapshot.context).toMatchObject({ trashed: HARBOUR_TRASHED })
    expect(effects.navigations).toEqual([])
    expect(effects.toasts).toEqual(
      event.type.includes('restoring') ? [{ kind: 'error', message: NOTICES.restoreFailed }] : [],
    )
  },
  restoring: ({ rig }) => expect(pendingArgs(rig.news, 'restore')).toEqual([[HARBOUR._id]]),
  deleted: ({ event, rig, effects }) => {
    if (event.type.includes('restoring')) {
      // Purged from the trash meanwhile: it cannot come back.
      expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.purged }])
      expect(effects.navigations).toEqual([{ to: '/', replace: true }])
      return
    }
    expect(effects.toasts).toEqual([
      {
        kind: 'success',
        message: NOTICES.deleted,
        action: { label: TOAST_ACTIONS.undo, intent: { type: 'news.restore', id: HARBOUR._id } },
      },
    ])
    expect(effects.navigations).toEqual([{ to: '/', replace: true }])
    expect(rig.services.store.getSnapshot().context.newsItem).toBeNull()
  },
}

describeModelPaths('article machine, model-based', model, provideArticle, { checks })
