import { SharedTabNewsChanges, type TabLocks } from '@/adapters/http/shared-tab.news-changes'
import { MemoryNewsChanges } from '@/adapters/memory/memory-news.changes'
import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsChangeFeed, NewsChangeSubscription } from '@/domain/ports/news-changes.port'
import { MemoryTabLocks } from './memory-tab-locks'

/*
 * The tabs of one browser sharing one live stream, each tab an adapter of its own, as in a
 * browser: a real BroadcastChannel between them (Node has it), the Web Locks contract in memory
 * (Node has no navigator.locks: memory-tab-locks.ts), and the in-memory change feed in place of
 * the server's stream, which counts the streams open at once.
 */

/** What one feed was told, in order. */
interface Told {
  readonly order: string[]
  readonly changes: number[]
  readonly subscription: NewsChangeSubscription
}

interface Tab {
  readonly number: number
  /** Opens a feed in this tab, from `since`. */
  listen(since?: number): Told
  /** Closes the tab, as a browser does: its lock, channel and stream go with it. */
  close(): void
}

let site: MemoryNewsChanges
let locks: MemoryTabLocks
let lockName: string
/** The most streams that were open at once. */
let mostOpen: number
const closers: (() => void)[] = []

beforeEach(() => {
  site = new MemoryNewsChanges()
  locks = new MemoryTabLocks()
  lockName = `newswire.live.test-${Math.random()}`
  mostOpen = 0
})

afterEach(() => {
  for (const close of closers.splice(0)) close()
})

function openTab(options: { keep?: number; handoverAfterMs?: number; locks?: TabLocks } = {}) {
  const view = locks.tab()
  const channel = new BroadcastChannel(lockName)
  const streams = new Set<NewsChangeSubscription>()
  let closed = false
  // The tab's stream: the site's, as long as the tab lives.
  const stream: NewsChangeFeed = {
    open(since, handlers) {
      const alive = <T extends unknown[]>(handle: (...args: T) => void) => {
        return (...args: T) => void (closed ? undefined : handle(...args))
      }
      const subscription = site.open(since, {
        ready: alive(handlers.ready),
        change: alive(handlers.change),
        reset: alive(handlers.reset),
        dropped: alive(handlers.dropped),
      })
      mostOpen = Math.max(mostOpen, site.openFeeds)
      streams.add(subscription)
      return subscription
    },
  }
  const feed = new SharedTabNewsChanges({
    stream,
    locks: options.locks ?? view.locks,
    channel,
    lockName,
    keep: options.keep,
    handoverAfterMs: options.handoverAfterMs,
  })
  const close = () => {
    if (closed) return
    closed = true
    for (const subscription of streams) subscription.close()
    channel.close()
    view.close()
  }
  closers.push(close)
  const tab: Tab = {
    number: view.number,
    listen(since) {
      const order: string[] = []
      const changes: number[] = []
      const subscription = feed.open(since, {
        ready: (seq) => void order.push(`ready ${seq}`),
        change: (change) => void (order.push(`change ${change.seq}`), changes.push(change.seq)),
        reset: (seq) => void order.push(`reset ${seq}`),
        dropped: () => void order.push('dropped'),
      })
      return { order, changes, subscription }
    },
    close,
  }
  return tab
}

const publish = (id = 'a'): NewsChange => site.publish({ id, kind: 'created', revision: 1 })

async function settled(check: () => void): Promise<void> {
  await vi.waitFor(check, { timeout: 2_000, interval: 5 })
}

const isReady = (told: Told) => told.order.some((entry) => entry.startsWith('ready'))

describe('one live stream shared by the tabs of a browser', () => {
  it('opens one stream for ten tabs, and tells each tab every change once, in order', async () => {
    publish()
    const tabs = Array.from({ length: 10 }, () => openTab())
    const told = tabs.map((tab) => tab.listen(site.seq))
    await settled(() => expect(told.every(isReady)).toBe(true))

    const made = [publish('b'), publish('c'), publish('d')].map((change) => change.seq)
    await settled(() => expect(told.map((each) => each.changes)).toEqual(told.map(() => made)))

    expect(site.openFeeds).toBe(1)
    expect(mostOpen).toBe(1)
    expect(locks.holder(lockName)).toBe(tabs[0]?.number)
    for (const each of told)
      expect(each.order).toEqual(['ready 1', 'change 2', 'change 3', 'change 4'])
  })

  it('tells a tab that joins later what it missed since its resume point, then ready', async () => {
    const leader = openTab().listen(0)
    await settled(() => expect(isReady(leader)).toBe(true))
    publish('a')
    publish('b')
    await settled(() => expect(leader.changes).toEqual([1, 2]))

    const late = openTab().listen(1)
    await settled(() => expect(late.order).toEqual(['change 2', 'ready 2']))
    expect(site.opens).toEqual([0])
  })

  it('does not tell a tab again a change its page was rendered after', async () => {
    const leader = openTab().listen(0)
    await settled(() => expect(isReady(leader)).toBe(true))
    // Rendered at version 1, before the stream told change 1.
    const newer = openTab().listen(1)
    await settled(() => expect(newer.order).toEqual(['ready 1']))
    publish('a')
    publish('b')
    await settled(() => expect(newer.order).toEqual(['ready 1', 'change 2']))
    expect(leader.changes).toEqual([1, 2])
  })

  it('when the leading tab closes, the next one takes over at once, from the last change told', async () => {
    const first = openTab()
    const second = openTab()
    const told = [first, second, openTab()].map((tab) => tab.listen(0))
    await settled(() => expect(told.every(isReady)).toBe(true))
    publish('a')
    await settled(() => expect(told.map((each) => each.changes)).toEqual([[1], [1], [1]]))

    first.close()
    publish('b')
    publish('c')

    const [, secondTold, thirdTold] = told
    await settled(() => expect(secondTold?.changes).toEqual([1, 2, 3]))
    await settled(() => expect(thirdTold?.changes).toEqual([1, 2, 3]))
    expect(secondTold?.order).toEqual(['ready 0', 'change 1', 'change 2', 'change 3'])
    expect(thirdTold?.order).toEqual(['ready 0', 'change 1', 'change 2', 'change 3'])
    expect(site.opens).toEqual([0, 1])
    expect(locks.holder(lockName)).toBe(second.number)
    expect(site.openFeeds).toBe(1)
    expect(mostOpen).toBe(1)
  })

  it('a tab that lets go of its feed (hidden a minute) hands the stream to a tab still reading', async () => {
    const leaving = openTab().listen(0)
    const shown = openTab()
    const staying = shown.listen(0)
    await settled(() => expect([leaving, staying].every(isReady)).toBe(true))

    leaving.subscription.close()
    await settled(() => expect(locks.holder(lockName)).toBe(shown.number))
    publish()
    await settled(() => expect(staying.changes).toEqual([1]))
    expect(leaving.changes).toEqual([])
    expect(site.openFeeds).toBe(1)

    staying.subscription.close()
    await settled(() => expect(site.openFeeds).toBe(0))
    expect(locks.holder(lockName)).toBeUndefined()
  })

  it('a lost stream drops the feed in every tab, and the first to try again opens it for all', async () => {
    const leading = openTab()
    const following = openTab()
    const leader = leading.listen(0)
    const follower = following.listen(0)
    await settled(() => expect([leader, follower].every(isReady)).toBe(true))
    publish()
    await settled(() => expect(follower.changes).toEqual([1]))

    site.drop()
    await settled(() => expect(follower.order.at(-1)).toBe('dropped'))
    expect(leader.order.at(-1)).toBe('dropped')
    publish('b')

    // The follower's wait ends first: the leading tab opens the stream again, from change 1.
    const again = following.listen(1) as Told
    await settled(() => expect(again.order).toEqual(['change 2', 'ready 2']))
    const leaderAgain = leading.listen(1) as Told
    await settled(() => expect(leaderAgain.order).toEqual(['change 2', 'ready 2']))
    expect(site.opens).toEqual([0, 1])
    expect(mostOpen).toBe(1)
  })

  it('a refused stream (429, or an outage) is told as dropped in every tab', async () => {
    site.refuse(1)
    const leader = openTab().listen(0)
    const follower = openTab().listen(0)
    await settled(() => expect([leader.order, follower.order]).toEqual([['dropped'], ['dropped']]))
    expect(site.openFeeds).toBe(0)
  })

  it('a leading tab whose own feed does not come back hands the stream over, with nothing lost', async () => {
    const leader = openTab({ handoverAfterMs: 50 }).listen(0)
    const following = openTab()
    const follower = following.listen(0)
    await settled(() => expect([leader, follower].every(isReady)).toBe(true))
    site.drop()
    await settled(() => expect(follower.order.at(-1)).toBe('dropped'))

    const again = following.listen(0) as Told
    await settled(() => expect(isReady(again)).toBe(true))
    await settled(() => expect(locks.holder(lockName)).toBe(following.number))
    publish()
    await settled(() => expect(again.changes).toEqual([1]))
    expect(site.openFeeds).toBe(1)
    expect(mostOpen).toBe(1)
  })

  it('tells a tab to reset when it resumes from before the changes the leading tab kept', async () => {
    const leader = openTab({ keep: 2 }).listen(0)
    await settled(() => expect(isReady(leader)).toBe(true))
    for (const id of ['a', 'b', 'c', 'd']) publish(id)
    await settled(() => expect(leader.changes).toEqual([1, 2, 3, 4]))

    const recent = openTab().listen(2)
    const old = openTab().listen(1)
    await settled(() => expect(old.order).toEqual(['reset 4', 'ready 4']))
    expect(recent.order).toEqual(['change 3', 'change 4', 'ready 4'])
  })

  it('tells every tab to reset when the stream cannot replay what they missed', async () => {
    const leading = openTab()
    const leader = leading.listen(0)
    const follower = openTab().listen(0)
    await settled(() => expect([leader, follower].every(isReady)).toBe(true))
    publish()
    await settled(() => expect(follower.changes).toEqual([1]))
    // The leading tab closes while the server forgets the change it would resume after.
    leading.close()
    publish('b')
    site.forget()

    await settled(() => expect(follower.order).toEqual(['ready 0', 'change 1', 'reset 2']))
    publish('c')
    await settled(() => expect(follower.order.at(-1)).toBe('change 3'))
  })

  it('opens a stream in each tab where the locks are refused', async () => {
    const refused: TabLocks = { request: () => Promise.reject(new Error('SecurityError')) }
    const tab = openTab({ locks: refused })
    const first = tab.listen(0)
    await settled(() => expect(first.order).toEqual(['dropped']))
    const again = tab.listen(0)
    await settled(() => expect(again.order).toEqual(['ready 0']))
    expect(site.openFeeds).toBe(1)
  })

  it('ignores what it cannot read on the channel, as from another release of the app', async () => {
    const tab = openTab()
    const told = tab.listen(0)
    await settled(() => expect(isReady(told)).toBe(true))
    const other = new BroadcastChannel(lockName)
    closers.push(() => other.close())
    other.postMessage({ type: 'change', change: { seq: 7, id: 'x', kind: 'moved' } })
    other.postMessage({ type: 'shutdown' })
    other.postMessage({ type: 'welcome', reader: 'x', changes: 'all', ready: 9 })
    other.postMessage({
      type: 'change',
      change: { seq: 8, id: 'y', kind: 'created', revision: 1, at: '2025-01-01T00:00:00Z' },
    })
    await settled(() => expect(told.order).toEqual(['ready 0', 'change 8']))
  })
})
