import { assertEvent, assign, setup } from 'xstate'
import type { NewsChange, RecentChange } from '@/domain/news-change.entity'
import type { ChangePage, ChangesQuery } from '@/domain/ports/news-repository.port'
import { undoOfChange, type ChangeUndo } from '@/domain/rules/undo.rules'
import type { UndoChangeInput } from '@/application/undo-change.use-case'
import {
  asDomainError,
  effectStubs,
  failureToast,
  isNotFound,
  stubUseCase,
} from '@/ui/shared/machine-effects'
import {
  pageOf,
  pagedImplementations,
  pagedStates,
  type WithContext,
} from '@/ui/shared/paged-list.fragment'
import { CHANGES_NOTICES } from '@/ui/features/changes/changes.texts'

export interface ChangesInput {
  /** Only this editor's changes. */
  readonly editor?: string
  /** The page the list starts at (the address's `?cursor=`); undefined for the first. */
  readonly cursor?: string
}

export interface ChangesContext {
  readonly editor: string | undefined
  readonly start: string | undefined
  /** The changes shown, newest first. */
  readonly items: readonly RecentChange[]
  /** The token of the next (older) page, while more remain. */
  readonly next: string | undefined
  /** The seq of the change being undone. */
  readonly undoing: number | undefined
  /** How many changes the live stream brought in last, for the polite announcement. */
  readonly arrived: number
  /** A change was heard while the newest ones were being fetched: fetch once more. */
  readonly heardAgain: boolean
}

type Step = WithContext<ChangesContext>

export type ChangesEvent =
  | { readonly type: 'changes.retry' }
  | { readonly type: 'changes.loadMore' }
  /** The live stream told of a change anywhere on the site. */
  | { readonly type: 'changes.heard'; readonly change: NewsChange }
  | { readonly type: 'changes.undo'; readonly seq: number }
  /** The live stream could not tell what was missed: the first page loads again. */
  | { readonly type: 'changes.reload' }

/** Whether a change shown is the newest of its post among those shown (none above it). */
export function isNewestShown(items: readonly RecentChange[], change: RecentChange): boolean {
  return !items.some((other) => other.id === change.id && other.seq > change.seq)
}

/** Whether the list offers 'Undo this change' for a change it shows. */
export function canUndo(items: readonly RecentChange[], change: RecentChange): boolean {
  return undoOfChange(change) !== undefined && isNewestShown(items, change)
}

/** The changes of a fresh first page that are newer than any shown, on top of those shown. */
function withNewer(context: ChangesContext, page: ChangePage): Partial<ChangesContext> {
  const top = context.items[0]?.seq ?? 0
  const newer = page.items.filter((change) => change.seq > top)
  return { items: [...newer, ...context.items], arrived: newer.length }
}

/**
 * The recent changes, the patrol's page: loads the newest changes (or the page its address
 * names, or one editor's), older pages on 'Load more', newer ones as the live stream tells of
 * them (on the first page only: a later page is a fixed slice of the past; all of it again when
 * the stream could not tell what was missed), and undoes one
 * change at a time while it is the newest of its post, then loads the newest changes again.
 */
export const changesMachine = setup({
  types: {
    context: {} as ChangesContext,
    events: {} as ChangesEvent,
    input: {} as ChangesInput | undefined,
  },
  actors: {
    listChanges: stubUseCase<ChangePage, ChangesQuery>(),
    undoChange: stubUseCase<ChangeUndo, UndoChangeInput>(),
  },
  actions: {
    ...effectStubs,
    showPage: assign((_, page: ChangePage) => ({ items: page.items, next: page.next })),
    /** A page of older changes has loaded: below those shown, each change once. */
    addPage: assign(({ context }, { items, next }: ChangePage) => {
      // Older pages never shift (changes only go on top); still, each change once.
      const fresh = items.filter(
        (change) => !context.items.some((shown) => shown.seq === change.seq),
      )
      return { items: [...context.items, ...fresh], next, arrived: 0 }
    }),
    /** The newest changes, fetched again: those not shown yet go on top. */
    addNewer: assign(({ context }, page: ChangePage) => withNewer(context, page)),
    noteUndoing: assign({
      undoing: ({ event }) => {
        assertEvent(event, 'changes.undo')
        return event.seq
      },
    }),
    forgetUndoing: assign({ undoing: undefined }),
    /** A change was told while the newest ones were being fetched. */
    noteHeard: assign({ heardAgain: true }),
    forgetHeard: assign({ heardAgain: false }),
  },
  guards: {
    ...pagedImplementations.guards,
    isFirstPage: ({ context }) => context.start === undefined,
    isNameRefused: ({ event }) => {
      const error = 'error' in event ? asDomainError(event.error) : undefined
      return error?.code === 'ValidationFailed' && 'editor' in error.fields
    },
    isUndoable: ({ context, event }) => {
      assertEvent(event, 'changes.undo')
      const change = context.items.find((each) => each.seq === event.seq)
      return change !== undefined && canUndo(context.items, change)
    },
    isChangedSince: ({ event }) => {
      const code = 'error' in event ? asDomainError(event.error).code : undefined
      return code === 'Stale' || code === 'Conflict'
    },
    isPurged: ({ event }) => 'error' in event && isNotFound(event.error),
    isHeardAgain: ({ context }) => context.heardAgain,
  },
}).createMachine({
  id: 'changes',
  context: ({ input }) => ({
    editor: input?.editor,
    start: input?.cursor,
    items: [],
    next: undefined,
    undoing: undefined,
    arrived: 0,
    heardAgain: false,
  }),
  initial: 'loading',
  states: {
    ...pagedStates({
      src: 'listChanges',
      events: 'changes',
      first: ({ context }: Step) => ({
        ...(context.editor === undefined ? {} : { editor: context.editor }),
        ...(context.start === undefined ? {} : { cursor: context.start }),
      }),
      more: ({ context }: Step) => ({
        ...(context.editor === undefined ? {} : { editor: context.editor }),
        cursor: context.next,
      }),
      refusals: [{ guard: 'isNameRefused', target: 'noSuchEditor' }],
      whileShown: {
        'changes.undo': { guard: 'isUndoable', target: 'undoing', actions: 'noteUndoing' },
      },
      whileReady: {
        'changes.heard': { guard: 'isFirstPage', target: 'refreshing' },
        'changes.reload': { guard: 'isFirstPage', target: 'loading' },
      },
      whileLoadingMore: {
        entry: 'forgetHeard',
        on: { 'changes.heard': { guard: 'isFirstPage', actions: 'noteHeard' } },
      },
      // A change told meanwhile: the newest are fetched next.
      moreElsewhere: [
        {
          guard: 'isHeardAgain',
          target: 'refreshing',
          actions: { type: 'addPage', params: pageOf },
        },
      ],
    }),
    /** The address names no editor anyone can be. */
    noSuchEditor: { type: 'final' },
    /** The newest changes are fetched again, and those not shown yet go on top. */
    refreshing: {
      entry: 'forgetHeard',
      on: { 'changes.heard': { actions: 'noteHeard' } },
      invoke: {
        src: 'listChanges',
        input: ({ context }) => (context.editor === undefined ? {} : { editor: context.editor }),
        onDone: [
          {
            guard: 'isHeardAgain',
            target: 'refreshing',
            reenter: true,
            actions: { type: 'addNewer', params: pageOf },
          },
          {
            target: 'ready',
            actions: { type: 'addNewer', params: pageOf },
          },
        ],
        // The next change heard tries again; the list shown stays.
        onError: { target: 'ready' },
      },
    },
    undoing: {
      invoke: {
        src: 'undoChange',
        input: ({ context }) => {
          const change = context.items.find((each) => each.seq === context.undoing)
          return {
            id: change?.id ?? '',
            kind: change?.kind ?? 'edited',
            revision: change?.revision ?? 0,
          }
        },
        onDone: {
          target: 'refreshing',
          actions: [
            'forgetUndoing',
            { type: 'showToast', params: { kind: 'success', message: CHANGES_NOTICES.undone } },
          ],
        },
        onError: [
          {
            guard: 'isChangedSince',
            target: 'refreshing',
            actions: [
              'forgetUndoing',
              {
                type: 'showToast',
                params: { kind: 'error', message: CHANGES_NOTICES.changedSince },
              },
            ],
          },
          {
            guard: 'isPurged',
            target: 'ready',
            actions: [
              'forgetUndoing',
              { type: 'showToast', params: { kind: 'error', message: CHANGES_NOTICES.purged } },
            ],
          },
          {
            target: 'ready',
            actions: [
              'forgetUndoing',
              { type: 'showToast', params: failureToast(CHANGES_NOTICES.undoFailed) },
            ],
          },
        ],
      },
    },
  },
})
