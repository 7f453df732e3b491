import { createActor, fromCallback, SimulatedClock, type AnyMachineSnapshot } from 'xstate'
import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsChangeFeed, NewsChangeHandlers } from '@/domain/ports/news-changes.port'
import { MemoryNewsChanges } from '@/adapters/memory/memory-news.changes'
import {
  backoffDelay,
  FIRST_BACKOFF_MS,
  liveUpdatesMachine,
  MAX_BACKOFF_MS,
  PAUSE_AFTER_MS,
  type LiveUpdatesContext,
  type LiveUpdatesEvent,
} from '@/ui/store/live-updates.machine'
import { provideLiveUpdates } from '@/ui/store/live-updates.provide'
import type { NewsStoreEvent } from '@/ui/store/news-store.types'
import { BACKOFF_ELAPSED, liveUpdatesModel } from './live-models'
import {
  CoverageRecorder,
  eventName,
  payload,
  settle,
  transitionPaths,
  type ModelPath,
  itTakesEachPath,
  expectCoverage,
} from './model-harness'

const coverage = new CoverageRecorder(liveUpdatesMachine)
const paths = transitionPaths(liveUpdatesModel)

interface Opened {
  readonly since: number | undefined
  readonly handlers: NewsChangeHandlers
  closed: boolean
}

/** A feed whose every open waits for the path to say what the stream tells. */
class ScriptedFeed implements NewsChangeFeed {
  readonly opened: Opened[] = []

  open(since: number | undefined, handlers: NewsChangeHandlers) {
    const opened: Opened = { since, handlers, closed: false }
    this.opened.push(opened)
    return { close: () => void (opened.closed = true) }
  }

  /** The feeds open now. */
  get open_(): Opened[] {
    return this.opened.filter((each) => !each.closed)
  }

  /** The one open feed, which the path's feed.* step speaks through. */
  current(): NewsChangeHandlers {
    const [only, ...more] = this.open_
    if (only === undefined || more.length > 0) {
      throw new Error(`expected one open feed, found ${this.open_.length}`)
    }
    return only.handlers
  }
}

/** The wait after `attempt` drops, before jitter: 1 s, 2 s, 4 s … 30 s. */
const step = (attempt: number) => Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempt - 1))

async function runLivePath(path: ModelPath): Promise<void> {
  const feed = new ScriptedFeed()
  const clock = new SimulatedClock()
  const told: NewsStoreEvent[] = []
  let visibility: ((event: LiveUpdatesEvent) => void) | undefined
  const machine = provideLiveUpdates(
    feed,
    (event) => told.push(event),
    fromCallback<LiveUpdatesEvent>(({ sendBack }) => {
      visibility = sendBack
    }),
  )
  const actor = createActor(machine, {
    clock,
    inspect: coverage.inspect,
    input: { since: undefined },
  }).start()
  let previous = actor.getSnapshot() as AnyMachineSnapshot
  try {
    for (const [index, { event, state }] of path.steps.entries()) {
      const label = `step ${index}, ${eventName(liveUpdatesModel, event)}`
      const before = previous.context as LiveUpdatesContext
      const toldBefore = told.length
      const opensBefore = feed.opened.length
      if (index > 0) {
        switch (event.type) {
          case 'feed.ready':
            feed.current().ready(payload<number>(event, 'seq'))
            break
          case 'feed.change':
            feed.current().change(payload<NewsChange>(event, 'change'))
            break
          case 'feed.reset':
            feed.current().reset(payload<number>(event, 'seq'))
            break
          case 'feed.dropped':
            feed.current().dropped()
            break
          case 'page.hidden':
          case 'page.visible':
            visibility?.(event as LiveUpdatesEvent)
            break
          case 'live.pause':
            // Not a moment before a minute has passed.
            clock.increment(PAUSE_AFTER_MS - 1)
            expect(actor.getSnapshot().matches('paused'), label).toBe(false)
            clock.increment(1)
            break
          case BACKOFF_ELAPSED: {
            // The wait is between half and the whole of the step for this many drops.
            const whole = step(before.attempt)
            clock.increment(whole / 2 - 1)
            expect(actor.getSnapshot().matches('waiting'), label).toBe(true)
            clock.increment(whole / 2 + 1)
            break
          }
          default:
            throw new Error(`${label}: the path sends what nothing here can`)
        }
      }
      await settle()
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot
      expect(snapshot.value, label).toEqual(state.value)
      expect(snapshot.context, label).toEqual(state.context)

      // Connected: exactly one feed is open; a new one resumes from the last change seen.
      if (snapshot.matches('connected')) {
        expect(feed.open_, label).toHaveLength(1)
        if (feed.opened.length > opensBefore) {
          expect(feed.opened.at(-1)?.since, label).toBe(before.seq)
        }
      } else {
        expect(feed.open_, label).toHaveLength(0)
      }
      // It resumes from the position the stream last gave: a ready's, a reset's, a new change's.
      const context = snapshot.context as LiveUpdatesContext
      if (event.type === 'feed.ready' || event.type === 'feed.reset') {
        expect(context.seq, label).toBe(payload<number>(event, 'seq'))
      } else if (event.type === 'feed.change') {
        const { seq } = payload<NewsChange>(event, 'change')
        expect(context.seq, label).toBe(Math.max(seq, before.seq ?? seq))
      }
      // The store hears each new change once, and a reset as a reload.
      const heard = told.slice(toldBefore)
      if (event.type === 'feed.change') {
        const change = payload<NewsChange>(event, 'change')
        const fresh = before.seq === undefined || change.seq > before.seq
        expect(heard, label).toEqual(fresh ? [{ type: 'news.changed', change }] : [])
      } else if (event.type === 'feed.reset') {
        expect(heard, label).toEqual([{ type: 'news.reset' }])
      } else {
        expect(heard, label).toEqual([])
      }
      previous = snapshot
    }
  } finally {
    actor.stop()
  }
  // Stopped, it leaves no stream open.
  expect(feed.open_).toHaveLength(0)
}

describe('live updates machine, model-based', () => {
  itTakesEachPath(liveUpdatesModel, paths, async (path) => {
    await runLivePath(path)
  })

  it('visits every state and takes every transition', () => expectCoverage(coverage))
})

/** The live-updates machine on the in-memory feed, with a clock the test moves. */
function follow(feed: MemoryNewsChanges, since?: number) {
  const clock = new SimulatedClock()
  const told: NewsStoreEvent[] = []
  let page: (event: LiveUpdatesEvent) => void = () => undefined
  const actor = createActor(
    provideLiveUpdates(
      feed,
      (event) => told.push(event),
      fromCallback<LiveUpdatesEvent>(({ sendBack }) => {
        page = sendBack
      }),
    ),
    { clock, input: { since } },
  ).start()
  const changes = () =>
    told.flatMap((event) => (event.type === 'news.changed' ? [event.change.seq] : []))
  return { actor, clock, changes, page: (event: LiveUpdatesEvent) => page(event) }
}

const edit = (id: string, revision: number) => ({ id, kind: 'edited' as const, revision })

describe('live updates, beyond the model', () => {
  it('waits 1 s, 2 s, 4 s … up to 30 s after drops in a row, at least half of each at random', () => {
    const steps = [1000, 2000, 4000, 8000, 16000, 30000, 30000]
    steps.forEach((whole, index) => {
      expect(backoffDelay(index + 1, () => 0)).toBe(whole / 2)
      expect(backoffDelay(index + 1, () => 0.999999)).toBe(whole)
    })
  })

  it('backs off longer after each refused connection, and starts over once connected', async () => {
    const feed = new MemoryNewsChanges()
    feed.refuse(3)
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const { actor, clock } = follow(feed)
    try {
      for (const wait of [500, 1000, 2000]) {
        await settle()
        expect(actor.getSnapshot().matches('waiting')).toBe(true)
        clock.increment(wait - 1)
        expect(actor.getSnapshot().matches('waiting')).toBe(true)
        clock.increment(1)
        expect(actor.getSnapshot().matches('connected')).toBe(true)
      }
      await settle()
      expect(actor.getSnapshot().matches({ connected: 'live' })).toBe(true)
      expect(feed.opens).toHaveLength(4)

      feed.drop()
      await settle()
      clock.increment(499)
      expect(actor.getSnapshot().matches('waiting')).toBe(true)
      clock.increment(1)
      expect(actor.getSnapshot().matches('connected')).toBe(true)
    } finally {
      actor.stop()
    }
  })

  it('opens first from the version the page was rendered at, and tells what changed since', async () => {
    const feed = new MemoryNewsChanges()
    feed.publish(edit('before the render', 2))
    feed.publish(edit('after the render', 2))
    const { actor, changes } = follow(feed, 1)
    await settle()

    expect(feed.opens).toEqual([1])
    expect(changes()).toEqual([2])
    actor.stop()
  })

  it('counts the hidden minute again each time the page is hidden, and resumes where it left off', async () => {
    const feed = new MemoryNewsChanges()
    const { actor, clock, page, changes } = follow(feed)
    await settle()
    feed.publish(edit('a', 2))
    await settle()

    page({ type: 'page.hidden' })
    clock.increment(PAUSE_AFTER_MS - 1)
    page({ type: 'page.visible' })
    page({ type: 'page.hidden' })
    clock.increment(PAUSE_AFTER_MS - 1)
    expect(feed.openFeeds).toBe(1)
    clock.increment(1)
    expect(actor.getSnapshot().matches('paused')).toBe(true)
    expect(feed.openFeeds).toBe(0)

    const missed: NewsChange = feed.publish(edit('b', 2))
    page({ type: 'page.visible' })
    await settle()
    expect(feed.opens).toEqual([undefined, 1])
    expect(changes()).toEqual([1, missed.seq])
    actor.stop()
  })
})
