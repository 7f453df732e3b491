import { createActor, fromCallback, SimulatedClock } from 'xstate'
import { MemoryNewsChanges } from '@/adapters/memory/memory-news.changes'
import type { NewsChange } from '@/domain/news-change.entity'
import {
  backoffDelay,
  PAUSE_AFTER_MS,
  type LiveUpdatesEvent,
} from '@/ui/store/live-updates.machine'
import { provideLiveUpdates } from '@/ui/store/live-updates.provide'
import type { NewsStoreEvent } from '@/ui/store/news-store.types'

/** Lets the feed's asynchronous messages arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** The live-updates machine on a memory feed, with a clock the test moves. */
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
  return { actor, clock, told, changes, page: (event: LiveUpdatesEvent) => page(event) }
}

const edit = (id: string, revision: number) => ({ id, kind: 'edited' as const, revision })

describe('live updates: the wait between connections', () => {
  it('waits 1 s, 2 s, 4 s … up to 30 s after drops in a row, at least half of each at random', () => {
    const steps = [1000, 2000, 4000, 8000, 16000, 30000, 30000]
    steps.forEach((step, index) => {
      expect(backoffDelay(index + 1, () => 0)).toBe(step / 2)
      expect(backoffDelay(index + 1, () => 0.999999)).toBe(step)
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
      vi.restoreAllMocks()
    }
  })
})

describe('live updates: following the feed', () => {
  it('opens without a resume point, then hands each change to the store once, in order', async () => {
    const feed = new MemoryNewsChanges()
    feed.publish(edit('before', 2))
    const { actor, changes } = follow(feed)
    await settle()
    expect(actor.getSnapshot().matches({ connected: 'live' })).toBe(true)
    expect(feed.opens).toEqual([undefined])

    feed.publish(edit('a', 2))
    feed.publish(edit('b', 2))
    await settle()
    expect(changes()).toEqual([2, 3])
    actor.stop()
    expect(feed.openFeeds).toBe(0)
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

  it('catches up on the changes made while the connection was down', async () => {
    const feed = new MemoryNewsChanges()
    const { actor, clock, changes } = follow(feed)
    await settle()
    feed.publish(edit('a', 2))
    await settle()

    feed.drop()
    await settle()
    expect(actor.getSnapshot().matches('waiting')).toBe(true)
    feed.publish(edit('b', 2))
    feed.publish(edit('c', 2))
    clock.increment(1000)
    await settle()

    expect(feed.opens).toEqual([undefined, 1])
    expect(changes()).toEqual([1, 2, 3])
    expect(actor.getSnapshot().matches({ connected: 'live' })).toBe(true)
    actor.stop()
  })

  it('asks for a reload when the feed cannot tell what was missed, and goes on from there', async () => {
    const feed = new MemoryNewsChanges({ replayLimit: 2 })
    const { actor, clock, told } = follow(feed)
    await settle()
    feed.publish(edit('a', 2))
    await settle()

    feed.drop()
    await settle()
    for (const id of ['b', 'c', 'd']) feed.publish(edit(id, 2))
    clock.increment(1000)
    await settle()

    expect(told.map((event) => event.type)).toEqual(['news.changed', 'news.reset'])
    expect(actor.getSnapshot().context.seq).toBe(4)
    feed.drop()
    await settle()
    clock.increment(1000)
    await settle()
    expect(feed.opens).toEqual([undefined, 1, 4])
    actor.stop()
  })

  it('lets go of the stream once the page has been hidden a minute, and resumes when shown', async () => {
    const feed = new MemoryNewsChanges()
    const { actor, clock, page, changes } = follow(feed)
    await settle()
    feed.publish(edit('a', 2))
    await settle()

    page({ type: 'page.hidden' })
    clock.increment(PAUSE_AFTER_MS - 1)
    expect(feed.openFeeds).toBe(1)
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
