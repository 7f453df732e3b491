import { assign } from 'xstate'

/** A page of a list as a screen's machine shows it: the first replaces, later ones extend. */
export interface PageShown<Item> {
  readonly items: readonly Item[]
  readonly append: boolean
}

interface Paged {
  readonly context: { readonly start?: string; readonly next: string | undefined }
}

interface PageLoaded {
  readonly event: {
    readonly output: { readonly items: readonly unknown[]; readonly next?: string }
  }
}

export interface PagedOptions<Src, Retry, More, Query, Shown, On, Refusals> {
  /** The use case that loads a page. */
  readonly src: Src
  /** The use case's input for the page at `cursor` (undefined: the first). */
  readonly query: Query
  /** The action a loaded page is handed to, with its PageShown. */
  readonly shown: Shown
  /** The events that try the first page again, and load the next. */
  readonly retry: Retry
  readonly loadMore: More
  /** What else the list answers while it shows its pages (the trash's Restore). */
  readonly on?: On
  /** Load failures with their own handling, tried first (a history whose post is gone). */
  readonly refusals?: Refusals
}

/**
 * The states every paged list shares — the news list, the search, the trash and a history —
 * in XState 5 terms, as item-machine.fragment.ts does for one post: `loading` the page the
 * context's `start` names (`failed` waits for `retry`), then `ready`; `loadMore`, while the
 * context's `next` names a page (the machine's `hasMore` guard), loads it in `loadingMore`,
 * and a failure there keeps the list (`loadMoreFailed`) and tries the same page again.
 */
export function pagedStates<
  const Src extends string,
  const Retry extends string,
  const More extends string,
  Query extends (context: never, cursor: string | undefined) => unknown,
  const Shown extends string,
  const On extends object = object,
  const Refusals extends readonly unknown[] = [],
>({
  src,
  query,
  shown,
  retry,
  loadMore,
  on,
  refusals,
}: PagedOptions<Src, Retry, More, Query, Shown, On, Refusals>) {
  type Input = ReturnType<Query>
  const ask = query as unknown as (context: Paged['context'], cursor?: string) => Input
  // The page the list starts at ('start'), or the next one ('next').
  const load = <Failed extends string>(
    append: boolean,
    page: 'start' | 'next',
    failed: Failed,
  ) => ({
    tags: ['busy'] as const,
    invoke: {
      src,
      input: ({ context }: Paged) => ask(context, context[page]),
      onDone: {
        target: 'ready' as const,
        actions: [
          {
            type: shown,
            // The items of whatever page `src` loads, as the machine's `shown` takes them.
            params: ({ event }: PageLoaded): PageShown<never> => ({
              items: event.output.items as readonly never[],
              append,
            }),
          },
          // The page's `next`, into any context the machine has (typed there, as Paged says).
          assign({ next: ({ event }: PageLoaded) => event.output.next }) as never,
        ],
      },
      onError: [...((refusals ?? []) as unknown as Refusals), { target: failed }] as const,
    },
  })
  const answers = <T>(more: T) => ({ ...on, [loadMore]: more }) as On & Record<More, T>
  return {
    loading: load(false, 'start', 'failed'),
    failed: {
      on: { [retry]: { target: 'loading' } } as Record<Retry, { readonly target: 'loading' }>,
    },
    ready: { on: answers({ guard: 'hasMore', target: 'loadingMore' } as const) },
    loadingMore: load(true, 'next', 'loadMoreFailed'),
    // 'Load more' stays on screen and tries the same page again.
    loadMoreFailed: { on: answers({ target: 'loadingMore' } as const) },
  } as const
}
