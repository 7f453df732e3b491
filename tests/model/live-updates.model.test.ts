import { createActor, fromCallback, SimulatedClock, type AnyMachineSnapshot } from 'xstate'
import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsChangeFeed, NewsChangeHandlers } from '@/domain/ports/news-changes.port'
import {
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
  describePath,
  eventName,
  formatCoverage,
  payload,
  settle,
  transitionPaths,
  type ModelPath,
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
  it.each(paths.map((path) => [describePath(liveUpdatesModel, path), path] as const))(
    '%s',
    async (_, path) => {
      await runLivePath(path)
    },
  )

  it('visits every state and takes every transition', () => {
    const report = coverage.report()
    console.info(formatCoverage(liveUpdatesMachine, report))
    expect(report.states.missed).toEqual([])
    expect(report.transitions.missed).toEqual([])
  })
})
