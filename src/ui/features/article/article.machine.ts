import { assign, setup } from 'xstate'
import type { TrashedNewsItem } from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import {
  failureToast,
  isStale,
  staleCurrent,
  stubUseCase,
  trashedOf,
} from '@/ui/shared/machine-effects'
import { NOTICES, TOAST_ACTIONS } from '@/ui/shared/notices'
import { paths } from '@/ui/shared/paths'
import * as fragment from '@/ui/shared/item-machine.fragment'

export interface ArticleContext {
  readonly id: string
  /** The revision the article showed when Delete was pressed: only that one may be deleted. */
  readonly revision: number | undefined
  /** The post, when it is in the trash: the page says so, and offers to restore it. */
  readonly trashed?: TrashedNewsItem
}

export type ArticleEvent =
  | { readonly type: 'article.retry' }
  | { readonly type: 'article.delete'; readonly revision?: number }
  /** Load the post again: its newer version ('Show the new version'), or after a reset. */
  | { readonly type: 'article.refresh' }
  /** Bring the post back from the trash. */
  | { readonly type: 'article.restore' }

export interface DeleteRequest {
  readonly id: string
  readonly condition?: WriteCondition
}

interface Step {
  readonly context: ArticleContext
}
interface Failure {
  readonly event: { readonly error: unknown }
}

/**
 * One article: load it, show it, delete it. A delete moves the post to the trash, and its toast
 * offers Undo. A delete from a stale copy (someone changed the post meanwhile) deletes nothing:
 * the article shows the stored post and the toast offers to review its history. The article
 * never changes under the reader: when the post was edited elsewhere, the reader asks for the
 * new version (`article.refresh`), and a post found gone meanwhile is marked deleted. A post
 * that is in the trash is not 'not available': the page says where it is, and Restore brings
 * it back here.
 */
export const articleMachine = setup({
  types: {
    context: {} as ArticleContext,
    events: {} as ArticleEvent,
    input: {} as { readonly id: string },
  },
  actors: {
    ...fragment.itemImplementations.actors,
    ...fragment.restoreImplementations.actors,
    deleteNews: stubUseCase<void, DeleteRequest>(),
  },
  actions: {
    ...fragment.itemImplementations.actions,
    /** Tells the news store the item is gone. */
    forgetItem: (_, _id: string): void => undefined,
    /** Tells the news store that the post was deleted elsewhere (a load found it gone). */
    markGone: (_, _id: string): void => undefined,
    keepTrashed: assign((_, trashed: TrashedNewsItem | undefined) => ({ trashed })),
    forgetTrashed: assign({ trashed: undefined }),
  },
  guards: {
    ...fragment.itemImplementations.guards,
    ...fragment.restoreImplementations.guards,
    isStale: ({ event }) => 'error' in event && isStale(event.error),
    isInTrash: ({ event }) => 'error' in event && trashedOf(event.error) !== undefined,
  },
}).createMachine({
  id: 'article',
  context: ({ input }) => ({ id: input.id, revision: undefined }),
  initial: 'loading',
  states: {
    ...fragment.loadStates('viewing', 'article.retry', [
      {
        guard: 'isInTrash',
        target: 'inTrash',
        actions: { type: 'keepTrashed', params: ({ event }: Failure) => trashedOf(event.error) },
      },
    ]),
    inTrash: {
      on: { 'article.restore': { target: 'restoring' } },
    },
    restoring: fragment.restoreState({
      input: ({ context }: Step) => context.id,
      restored: {
        target: 'viewing',
        actions: [fragment.storeRestored, 'forgetTrashed'],
      },
      backAlready: { target: 'loading', actions: ['forgetTrashed'] },
      purged: {
        target: 'deleted',
        actions: [{ type: 'navigate', params: { to: paths.home(), replace: true } }],
      },
      failed: { target: 'inTrash' },
    }),
    viewing: {
      on: {
        'article.delete': {
          target: 'deleting',
          actions: assign({ revision: ({ event }) => event.revision }),
        },
        'article.refresh': { target: 'refreshing' },
      },
    },
    refreshing: {
      invoke: {
        src: 'getNewsItem',
        input: ({ context }) => context.id,
        onDone: {
          target: 'viewing',
          actions: { type: 'storeItem', params: ({ event }) => event.output },
        },
        onError: [
          {
            guard: 'isNotFound',
            target: 'viewing',
            actions: { type: 'markGone', params: ({ context }) => context.id },
          },
          {
            target: 'viewing',
            actions: { type: 'showToast', params: failureToast(NOTICES.tryAgainLater) },
          },
        ],
      },
    },
    deleting: fragment.submitState({
      src: 'deleteNews',
      input: ({ context }: Step): DeleteRequest =>
        context.revision === undefined
          ? { id: context.id }
          : { id: context.id, condition: { ifRevision: [context.revision] } },
      done: {
        target: 'deleted',
        actions: [
          { type: 'forgetItem', params: ({ context }: Step) => context.id },
          {
            type: 'showToast',
            params: ({ context }: Step) => ({
              kind: 'success' as const,
              message: NOTICES.deleted,
              action: {
                label: TOAST_ACTIONS.undo,
                intent: { type: 'news.restore' as const, id: context.id },
              },
            }),
          },
          { type: 'navigate', params: { to: paths.home(), replace: true } },
        ],
      },
      failed: 'viewing',
      failureMessage: NOTICES.deleteFailed,
      refusals: [
        {
          guard: 'isStale',
          target: 'viewing',
          actions: [
            { type: 'storeItem', params: ({ event }: Failure) => staleCurrent(event.error) },
            {
              type: 'showToast',
              params: ({ context }: Step) => ({
                kind: 'error' as const,
                message: NOTICES.deleteConflict,
                action: {
                  label: TOAST_ACTIONS.review,
                  intent: { type: 'navigate' as const, to: paths.history(context.id) },
                },
              }),
            },
          ],
        },
      ],
    }),
    deleted: { type: 'final' },
  },
})
