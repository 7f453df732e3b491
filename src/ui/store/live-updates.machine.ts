import { assertEvent, assign, cancel, fromCallback, raise, setup } from 'xstate'
import type { NewsChange } from '@/domain/news-change.entity'

/** The first wait after a drop; each drop in a row doubles it, up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 1_000
export const MAX_BACKOFF_MS = 30_000
/** How long a hidden page keeps its stream before it lets go of it (see `paused`). */
export const PAUSE_AFTER_MS = 60_000

/**
 * The wait before connecting again after `attempt` drops in a row: 1 s, 2 s, 4 s … 30 s, of
 * which the second half is chosen at random, so that the pages a stopping server dropped do not
 * all come back in the same instant.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempt - 1))
  return Math.round(step / 2 + (random() * step) / 2)
}

export interface LiveUpdatesContext {
  /** The last change (or position) the stream told: where a new connection resumes. */
  readonly seq: number | undefined
  /** Connections lost or refused in a row; it sets the next wait. */
  readonly attempt: number
  /** Whether the page is in the background. */
  readonly hidden: boolean
}

/** Where the change feed resumes. */
export interface ChangeFeedInput {
  readonly since: number | undefined
}

export type LiveUpdatesEvent =
  /** The feed has told what was missed and is live (see NewsChangeHandlers). */
  | { readonly type: 'feed.ready'; readonly seq: number }
  | { readonly type: 'feed.change'; readonly change: NewsChange }
  | { readonly type: 'feed.reset'; readonly seq: number }
  | { readonly type: 'feed.dropped' }
  /** The page went to the background, or came back. */
  | { readonly type: 'page.hidden' }
  | { readonly type: 'page.visible' }
  /** The page has been hidden for PAUSE_AFTER_MS. */
  | { readonly type: 'live.pause' }

/**
 * Keeps the app in step with the site: follows the live change feed and hands each change to
 * the news store (`deliver`). When the connection drops, or is refused, it waits (`backoff`:
 * 1 s, 2 s, 4 s … 30 s with jitter) and connects again from the last change it saw, so that
 * the feed tells what was missed; when the feed cannot (`feed.reset`), it asks the app to load
 * again what it shows (`reload`). A page hidden for a minute lets go of its stream and resumes
 * when it is shown again.
 */
export const liveUpdatesMachine = setup({
  types: {
    context: {} as LiveUpdatesContext,
    events: {} as LiveUpdatesEvent,
    /** Where the first connection resumes: the site's version the page was rendered at. */
    input: {} as ChangeFeedInput | undefined,
  },
  actors: {
    /** The open feed, from `since`: it sends the feed.* events back until it is stopped. */
    changeFeed: fromCallback<LiveUpdatesEvent, ChangeFeedInput>(() => undefined),
    /** Sends page.hidden and page.visible as the page goes to the background and back. */
    pageVisibility: fromCallback<LiveUpdatesEvent>(() => undefined),
  },
  actions: {
    /** Hands a change to the news store. */
    deliver: (_, _change: NewsChange): void => undefined,
    /** Asks the screens to load again what they show. */
    reload: (): void => undefined,
  },
  delays: {
    backoff: ({ context }) => backoffDelay(context.attempt),
    pauseAfter: PAUSE_AFTER_MS,
  },
  guards: {
    /** Not told before: a feed resumed after a change never repeats it, but a reset may. */
    isNew: ({ context, event }) => {
      assertEvent(event, 'feed.change')
      return context.seq === undefined || event.change.seq > context.seq
    },
  },
}).createMachine({
  id: 'liveUpdates',
  context: ({ input }) => ({ seq: input?.since, attempt: 0, hidden: false }),
  invoke: { src: 'pageVisibility' },
  on: {
    'page.hidden': {
      actions: [
        assign({ hidden: true }),
        cancel('pause'),
        raise({ type: 'live.pause' }, { id: 'pause', delay: 'pauseAfter' }),
      ],
    },
    'page.visible': { actions: [assign({ hidden: false }), cancel('pause')] },
    'live.pause': { target: '.paused' },
  },
  initial: 'connected',
  states: {
    connected: {
      invoke: { src: 'changeFeed', input: ({ context }) => ({ since: context.seq }) },
      on: {
        'feed.change': {
          guard: 'isNew',
          actions: [
            assign({ seq: ({ event }) => event.change.seq }),
            { type: 'deliver', params: ({ event }) => event.change },
          ],
        },
        'feed.reset': {
          actions: [assign({ seq: ({ event }) => event.seq }), 'reload'],
        },
        'feed.dropped': {
          target: 'waiting',
          actions: assign({ attempt: ({ context }) => context.attempt + 1 }),
        },
      },
      initial: 'connecting',
      states: {
        connecting: {
          on: {
            'feed.ready': {
              target: 'live',
              actions: assign({ seq: ({ event }) => event.seq, attempt: 0 }),
            },
          },
        },
        live: {},
      },
    },
    waiting: {
      after: { backoff: { target: 'connected' } },
    },
    paused: {
      on: {
        'page.visible': { target: 'connected', actions: assign({ hidden: false }) },
      },
    },
  },
})
