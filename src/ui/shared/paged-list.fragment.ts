/**
 * The states every paged list shares — the news list, the search, the trash, a post's history
 * and the recent changes — in the manner of cypress-realworld-app's dataMachine, in XState 5
 * terms: a machine spreads `pagedImplementations` into its `setup()` and `pagedStates(...)` into
 * its states, and names in its `setup()` what a loaded page does to it: `showPage` (the first
 * page, in place of what was shown) and `addPage` (the next page, below what is shown), each
 * with the page as its params (or says otherwise with `shown` and `added`). So loading, 'Load
 * more' and their failures behave the same on every list.
 */
export const pagedImplementations = {
  guards: {
    /** Another page remains after those shown. */
    hasMore: ({ context }: { readonly context: { readonly next: string | undefined } }) =>
      context.next !== undefined,
  },
}

/** What a request or an action reads: the machine's context. */
export interface WithContext<Context> {
  readonly context: Context
}

/** The page a load answered with, as a named action's params. */
export const pageOf = <Page>({ event }: { readonly event: { readonly output: Page } }): Page =>
  event.output

const SHOW_PAGE = { type: 'showPage', params: pageOf } as const
const ADD_PAGE = { type: 'addPage', params: pageOf } as const

export interface PagedOptions<
  Src,
  Prefix,
  FirstInput,
  MoreInput,
  Refusals extends readonly unknown[],
  MoreRefusals extends readonly unknown[],
  MoreElsewhere extends readonly unknown[],
  WhileShown,
  WhileReady,
  WhileLoadingMore,
  Shown,
  Added,
> {
  /** The use case that loads a page. */
  readonly src: Src
  /** The namespace of the list's events: `<events>.retry` and `<events>.loadMore`. */
  readonly events: Prefix
  /** The request for the page the list opens at: the first, or the one the address names. */
  readonly first: FirstInput
  /** The request for the page after those shown. */
  readonly more: MoreInput
  /** What the first page does, in place of `showPage`. */
  readonly shown?: Shown
  /** What a further page does, in place of `addPage`. */
  readonly added?: Added
  /** Failures of the first load with their own ending, tried before `failed`. */
  readonly refusals?: Refusals
  /** The same for a further page, tried before `loadMoreFailed`. */
  readonly moreRefusals?: MoreRefusals
  /** Where a further page goes instead of `ready`, tried first (each runs `addPage` itself). */
  readonly moreElsewhere?: MoreElsewhere
  /** What the visitor may do to the entries shown while no page loads: restore, undo. */
  readonly whileShown?: WhileShown
  /** What else the list answers once its pages are in (the live stream's news). */
  readonly whileReady?: WhileReady
  /** What else the list does while a further page loads. */
  readonly whileLoadingMore?: WhileLoadingMore
}

/**
 * `loading` the page the list opens at, then `ready`; a failure waits in `failed` for
 * `<events>.retry`. In `ready`, `<events>.loadMore` loads the next page while one remains
 * (`loadingMore`); a failure of it waits in `loadMoreFailed`, where the list stays on screen and
 * 'Load more' tries the same page again. Both loads are `busy`.
 */
export function pagedStates<
  const Src extends string,
  const Prefix extends string,
  FirstInput,
  MoreInput,
  const Refusals extends readonly unknown[] = [],
  const MoreRefusals extends readonly unknown[] = [],
  const MoreElsewhere extends readonly unknown[] = [],
  const WhileShown extends object = object,
  const WhileReady extends object = object,
  const WhileLoadingMore extends object = object,
  const Shown extends readonly unknown[] = readonly [typeof SHOW_PAGE],
  const Added extends readonly unknown[] = readonly [typeof ADD_PAGE],
>(
  options: PagedOptions<
    Src,
    Prefix,
    FirstInput,
    MoreInput,
    Refusals,
    MoreRefusals,
    MoreElsewhere,
    WhileShown,
    WhileReady,
    WhileLoadingMore,
    Shown,
    Added
  >,
) {
  const { src, events, first, more } = options
  const shown = (options.shown ?? [SHOW_PAGE]) as Shown
  const added = (options.added ?? [ADD_PAGE]) as Added
  const retry = `${events}.retry` as const
  const loadMore = `${events}.loadMore` as const
  return {
    loading: {
      tags: ['busy'],
      invoke: {
        src,
        input: first,
        onDone: { target: 'ready', actions: shown },
        onError: [...((options.refusals ?? []) as unknown as Refusals), { target: 'failed' }],
      },
    },
    failed: {
      on: { [retry]: { target: 'loading' } } as Record<
        typeof retry,
        { readonly target: 'loading' }
      >,
    },
    ready: {
      on: {
        [loadMore]: { guard: 'hasMore', target: 'loadingMore' },
        ...((options.whileShown ?? {}) as WhileShown),
        ...((options.whileReady ?? {}) as WhileReady),
      } as Record<typeof loadMore, { readonly guard: 'hasMore'; readonly target: 'loadingMore' }> &
        WhileShown &
        WhileReady,
    },
    loadingMore: {
      tags: ['busy'],
      ...((options.whileLoadingMore ?? {}) as WhileLoadingMore),
      invoke: {
        src,
        input: more,
        onDone: [
          ...((options.moreElsewhere ?? []) as unknown as MoreElsewhere),
          { target: 'ready', actions: added },
        ],
        onError: [
          ...((options.moreRefusals ?? []) as unknown as MoreRefusals),
          { target: 'loadMoreFailed' },
        ],
      },
    },
    loadMoreFailed: {
      on: {
        // 'Load more' stays on screen and tries the same page again.
        [loadMore]: { target: 'loadingMore' },
        ...((options.whileShown ?? {}) as WhileShown),
      } as Record<typeof loadMore, { readonly target: 'loadingMore' }> & WhileShown,
    },
  } as const
}
