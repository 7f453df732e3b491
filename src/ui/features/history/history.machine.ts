import { assertEvent, assign, setup } from 'xstate'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { RevisionPage } from '@/domain/ports/news-repository.port'
import {
  effectStubs,
  failureToast,
  isConflict,
  leaveForHome,
  stubUseCase,
} from '@/ui/shared/machine-effects'
import { NOTICES } from '@/ui/shared/notices'
import { itemImplementations } from '@/ui/shared/item-machine.fragment'
import {
  pagedImplementations,
  pagedStates,
  type WithContext,
} from '@/ui/shared/paged-list.fragment'

export interface HistoryContext {
  readonly id: string
  /** The versions loaded so far, newest first; kept on screen while the history reloads. */
  readonly revisions: readonly NewsRevision[]
  /** The token of the page of older versions, while any remain. */
  readonly next: string | undefined
  /** The number of the version being restored. */
  readonly restoring: number | undefined
}

type Step = WithContext<HistoryContext>

export type HistoryEvent =
  | { readonly type: 'history.retry' }
  | { readonly type: 'history.loadMore' }
  | { readonly type: 'history.restore'; readonly revision: number }

export interface HistoryPageRequest {
  readonly id: string
  /** Absent for the newest versions. */
  readonly cursor?: string
}

export interface RestoreRevisionRequest {
  readonly id: string
  readonly revision: number
}

/**
 * A post's history: loads the newest versions a page at a time, older pages on 'Load more',
 * and makes an older version current again (a new version, so history only grows), then
 * loads the newest page again. A post in the trash must come back from the trash first; a
 * post that does not exist (or was purged meanwhile) leads home like the article.
 */
export const historyMachine = setup({
  types: {
    context: {} as HistoryContext,
    events: {} as HistoryEvent,
    input: {} as { readonly id: string },
  },
  actors: {
    listRevisions: stubUseCase<RevisionPage, HistoryPageRequest>(),
    restoreRevision: stubUseCase<NewsItem, RestoreRevisionRequest>(),
  },
  actions: {
    ...effectStubs,
    /** Hands the restored post to the news store, so that the article shows it at once. */
    storeItem: (_, _item: NewsItem): void => undefined,
    showPage: assign((_, page: RevisionPage) => ({ revisions: page.items, next: page.next })),
    addPage: assign(({ context }, page: RevisionPage) => ({
      // Older pages never shift (new versions only go on top); still, each one once.
      revisions: [
        ...context.revisions,
        ...page.items.filter(
          (version) => !context.revisions.some((shown) => shown.revision === version.revision),
        ),
      ],
      next: page.next,
    })),
    noteRestoring: assign({
      restoring: ({ event }) => {
        assertEvent(event, 'history.restore')
        return event.revision
      },
    }),
    forgetRestoring: assign({ restoring: undefined }),
  },
  guards: {
    ...pagedImplementations.guards,
    ...itemImplementations.guards,
    /** Any listed version but the current one can be restored. */
    isOlderVersion: ({ context, event }) => {
      assertEvent(event, 'history.restore')
      return context.revisions.slice(1).some((each) => each.revision === event.revision)
    },
    isInTrash: ({ event }) => 'error' in event && isConflict(event.error, 'InTrash'),
  },
}).createMachine({
  id: 'history',
  context: ({ input }) => ({
    id: input.id,
    revisions: [],
    next: undefined,
    restoring: undefined,
  }),
  initial: 'loading',
  states: {
    ...pagedStates({
      src: 'listRevisions',
      events: 'history',
      first: ({ context }: Step) => ({ id: context.id }),
      more: ({ context }: Step) => ({ id: context.id, cursor: context.next }),
      refusals: [{ guard: 'isNotFound', target: 'notAvailable' }],
      moreRefusals: [{ guard: 'isNotFound', target: 'notAvailable' }],
      whileShown: {
        'history.restore': {
          guard: 'isOlderVersion',
          target: 'restoring',
          actions: 'noteRestoring',
        },
      },
    }),
    notAvailable: {
      type: 'final',
      entry: leaveForHome,
    },
    restoring: {
      invoke: {
        src: 'restoreRevision',
        input: ({ context }) => ({ id: context.id, revision: context.restoring ?? 0 }),
        onDone: {
          target: 'loading',
          actions: [
            'forgetRestoring',
            { type: 'storeItem', params: ({ event }) => event.output },
            { type: 'showToast', params: { kind: 'success', message: NOTICES.versionRestored } },
          ],
        },
        onError: [
          {
            guard: 'isInTrash',
            target: 'ready',
            actions: [
              'forgetRestoring',
              {
                type: 'showToast',
                params: { kind: 'error', message: NOTICES.restoreFromTrashFirst },
              },
            ],
          },
          { guard: 'isNotFound', target: 'notAvailable' },
          {
            target: 'ready',
            actions: [
              'forgetRestoring',
              { type: 'showToast', params: failureToast(NOTICES.restoreFailed) },
            ],
          },
        ],
      },
    },
  },
})
