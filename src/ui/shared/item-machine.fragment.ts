import type { AnyEventObject } from 'xstate'
import type { NewsItem } from '@/domain/news-item.entity'
import {
  effectStubs,
  failureToast,
  isConflict,
  isNotFound,
  leaveForHome,
  stubUseCase,
} from '@/ui/shared/machine-effects'
import { NOTICES } from '@/ui/shared/notices'

/**
 * The states every screen about one post shares — the article and the edit form — in the
 * manner of cypress-realworld-app's dataMachine, in XState 5 terms: a machine spreads
 * `itemImplementations` into its `setup()` and `loadStates(...)` and `submitState(...)` into
 * its states, so that loading a post and sending a change behave the same on every screen.
 */
export const itemImplementations = {
  actors: {
    getNewsItem: stubUseCase<NewsItem, string>(),
  },
  actions: {
    ...effectStubs,
    /** Hands the loaded item to the news store (the spec's get_news_by_id). */
    storeItem: (_: unknown, _item: NewsItem): void => undefined,
  },
  guards: {
    isNotFound: ({ event }: { readonly event: AnyEventObject }) =>
      'error' in event && isNotFound(event.error),
  },
}

interface WithId {
  readonly context: { readonly id?: string }
}

interface LoadedEvent {
  readonly event: { readonly output: NewsItem }
}

/**
 * `loading` the post named by the context's `id`, then `loaded`; a post that does not exist
 * leaves for home (`notAvailable`); any other failure waits in `failed` for `retry`. A screen
 * may handle some failures first, as `refusals` (the article: a post found in the trash).
 */
export function loadStates<
  Target extends string,
  Retry extends string,
  const Refusals extends readonly unknown[] = [],
>(loaded: Target, retry: Retry, refusals?: Refusals) {
  return {
    loading: {
      invoke: {
        src: 'getNewsItem',
        input: ({ context }: WithId) => context.id ?? '',
        onDone: {
          target: loaded,
          actions: {
            type: 'storeItem',
            params: ({ event }: LoadedEvent) => event.output,
          },
        },
        onError: [
          ...((refusals ?? []) as unknown as Refusals),
          { guard: 'isNotFound', target: 'notAvailable' },
          { target: 'failed' },
        ],
      },
    },
    failed: {
      on: { [retry]: { target: 'loading' } } as Record<Retry, { readonly target: 'loading' }>,
    },
    notAvailable: {
      type: 'final',
      entry: leaveForHome,
    },
  } as const
}

export interface SubmitOptions<
  Src,
  Input,
  Done,
  Failed,
  Refusals extends readonly unknown[],
  OnFailure extends readonly unknown[],
> {
  /** The use case that sends the change. */
  readonly src: Src
  readonly input: Input
  /** Where a sent change goes, and what it does. */
  readonly done: Done
  /** Where a failed change goes back to; the visitor's text and the screen stay. */
  readonly failed: Failed
  /** The failure toast's text (a 429 says when to try again instead). */
  readonly failureMessage: string
  /** Failures with their own handling, tried first: a conflict, a server's refusal. */
  readonly refusals?: Refusals
  /** What a failure also does, before its toast. */
  readonly onFailure?: OnFailure
}

/**
 * A state that sends a change: on success it goes on as `done` says; on failure it goes back to
 * `failed` with the failure toast, unless one of `refusals` handles the error first.
 */
export function submitState<
  const Src extends string,
  Input,
  const Done,
  const Failed extends string,
  const Refusals extends readonly unknown[] = [],
  const OnFailure extends readonly unknown[] = [],
>({
  src,
  input,
  done,
  failed,
  failureMessage,
  refusals,
  onFailure,
}: SubmitOptions<Src, Input, Done, Failed, Refusals, OnFailure>) {
  return {
    invoke: {
      src,
      input,
      onDone: done,
      onError: [
        ...((refusals ?? []) as unknown as Refusals),
        {
          target: failed,
          actions: [
            ...((onFailure ?? []) as unknown as OnFailure),
            { type: 'showToast' as const, params: failureToast(failureMessage) },
          ],
        },
      ],
    },
  } as const
}

/** Bringing a post back from the trash: the use case, and what its failures mean. */
export const restoreImplementations = {
  actors: {
    restoreNews: stubUseCase<NewsItem, string>(),
  },
  guards: {
    /** Restored elsewhere meanwhile: it is back all the same. */
    isBackAlready: ({ event }: { readonly event: AnyEventObject }) =>
      'error' in event && isConflict(event.error, 'NotInTrash'),
    /** Removed from the trash for good meanwhile. */
    isPurged: ({ event }: { readonly event: AnyEventObject }) =>
      'error' in event && isNotFound(event.error),
  },
}

/** A restore's answer: the post, back. */
export interface RestoredStep {
  readonly event: { readonly output: NewsItem }
}

/** Hands the restored post to the news store, so that every screen shows it at once. */
export const storeRestored = {
  type: 'storeItem',
  params: ({ event }: RestoredStep) => event.output,
} as const

interface Outcome<Target, Actions> {
  readonly target: Target
  /** What the screen does besides the toast, after it. */
  readonly actions?: Actions
}

type AnyOutcome = Outcome<unknown, readonly unknown[]>

export interface RestoreOptions<
  Input,
  Restored extends AnyOutcome,
  BackAlready extends AnyOutcome | undefined,
  Purged extends AnyOutcome | undefined,
  Failed extends AnyOutcome,
  Announce extends boolean,
> {
  /** The id of the post to restore. */
  readonly input: Input
  /** The post is back: 'the news post is back'. */
  readonly restored: Restored
  /** False: the post's return goes untold (the edit form tells of the edit it saves onto it). */
  readonly announce?: Announce
  /** Someone restored it first; without this, that counts as a failure. */
  readonly backAlready?: BackAlready
  /** It was purged meanwhile: it cannot come back; without this, a failure. */
  readonly purged?: Purged
  /** Any other failure: its toast, and the post stays in the trash. */
  readonly failed: Failed
}

const RESTORED_TOAST = {
  type: 'showToast',
  params: { kind: 'success', message: NOTICES.restored },
} as const

const PURGED_TOAST = {
  type: 'showToast',
  params: { kind: 'error', message: NOTICES.purged },
} as const

const RESTORE_FAILED_TOAST = {
  type: 'showToast',
  params: failureToast(NOTICES.restoreFailed),
} as const

/** The actions an outcome names, or none. */
type ActionsOf<O> = O extends { readonly actions: infer A extends readonly unknown[] } ? A : []

function outcome<const O extends AnyOutcome, const Toast>({ target, actions }: O, toast: Toast) {
  return { target, actions: [toast, ...(actions ?? [])] } as unknown as {
    readonly target: O['target']
    readonly actions: readonly [Toast, ...ActionsOf<O>]
  }
}

/** The outcome behind `guard`, when the screen has one: else the failure takes its case. */
function guarded<const Guard extends string, O extends AnyOutcome | undefined, const Toast>(
  guard: Guard,
  given: O,
  toast: Toast,
) {
  return (given === undefined ? [] : [{ guard, ...outcome(given, toast) }]) as unknown as [
    O,
  ] extends [AnyOutcome]
    ? readonly [{ readonly guard: Guard } & ReturnType<typeof outcome<O, Toast>>]
    : readonly []
}

/**
 * The one place where a restore from the trash is decided, for every screen that offers it:
 * the post is back (and says so); someone restored it first (back all the same); it was purged
 * meanwhile (it cannot come back); or it failed (the failure toast). Each outcome goes where
 * the screen says, with the toast first, then the screen's own actions.
 */
export function restoreState<
  Input,
  const Restored extends AnyOutcome,
  const Failed extends AnyOutcome,
  const BackAlready extends AnyOutcome | undefined = undefined,
  const Purged extends AnyOutcome | undefined = undefined,
  const Announce extends boolean = true,
>(options: RestoreOptions<Input, Restored, BackAlready, Purged, Failed, Announce>) {
  const { input, restored, backAlready, purged, failed } = options
  return {
    invoke: {
      src: 'restoreNews',
      input,
      onDone: (options.announce === false
        ? { target: restored.target, actions: restored.actions ?? [] }
        : outcome(restored, RESTORED_TOAST)) as unknown as Announce extends false
        ? { readonly target: Restored['target']; readonly actions: ActionsOf<Restored> }
        : ReturnType<typeof outcome<Restored, typeof RESTORED_TOAST>>,
      onError: [
        ...guarded('isBackAlready', backAlready, RESTORED_TOAST),
        ...guarded('isPurged', purged, PURGED_TOAST),
        outcome(failed, RESTORE_FAILED_TOAST),
      ],
    },
  } as const
}
