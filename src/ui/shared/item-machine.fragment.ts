import type { AnyEventObject } from 'xstate'
import type { NewsItem } from '@/domain/news-item.entity'
import {
  effectStubs,
  failureToast,
  isNotFound,
  leaveForHome,
  stubUseCase,
} from '@/ui/shared/machine-effects'

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
