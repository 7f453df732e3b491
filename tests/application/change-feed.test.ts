import { ChangeFeed } from '@/application/change-feed'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import type { NewsChangeLog } from '@/application/ports/change-log.port'
import { EVENT_REPLAY_WINDOW_MS } from '@/domain/rules/news-history.rules'

const draft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }

async function siteWithPosts(count: number) {
  const store = new MemoryNewsStore()
  const journal = new JournaledNewsRepository(store)
  for (let index = 0; index < count; index += 1) {
    await journal.create({ ...draft, title: `Post ${index}` })
  }
  return { store, journal }
}

describe('ChangeFeed', () => {
  it('starts a new reader at the current version, with nothing to replay', async () => {
    const { store } = await siteWithPosts(3)
    expect(await new ChangeFeed(store).start()).toEqual({
      ok: true,
      value: { missed: [], reset: false, seq: 3 },
    })
  })

  it('replays the changes after the resume point, oldest first, up to the version it answers', async () => {
    const { store } = await siteWithPosts(3)
    const start = await new ChangeFeed(store).start(1)
    expect(start.ok && start.value.missed.map((change) => change.seq)).toEqual([2, 3])
    expect(start.ok && start.value).toMatchObject({ reset: false, seq: 3 })
    expect(await new ChangeFeed(store).start(3)).toEqual({
      ok: true,
      value: { missed: [], reset: false, seq: 3 },
    })
  })

  it('leaves out changes committed after the version it read: the watcher sends those', async () => {
    const { store, journal } = await siteWithPosts(2)
    // A change that commits between the read of the version and the read of the log.
    const log: NewsChangeLog = {
      version: () => store.version(),
      changeLogBounds: () => store.changeLogBounds(),
      changesSince: async (seq, limit) => {
        await journal.create(draft)
        return store.changesSince(seq, limit)
      },
    }
    const start = await new ChangeFeed(log).start(0)
    expect(start.ok && start.value.missed.map((change) => change.seq)).toEqual([1, 2])
    expect(start.ok && start.value.seq).toBe(2)
  })

  it('tells a reader to reset when it is further behind than a replay holds', async () => {
    const { store } = await siteWithPosts(5)
    const feed = new ChangeFeed(store, 3)
    expect(await feed.start(2)).toMatchObject({ ok: true, value: { reset: false } })
    expect(await feed.start(1)).toEqual({ ok: true, value: { missed: [], reset: true, seq: 5 } })
  })

  it('tells a reader to reset when its changes were purged, or it names a version never reached', async () => {
    const { store } = await siteWithPosts(3)
    const epoch = new Date(0).toISOString()
    await store.purge({
      trashedBefore: epoch,
      keysBefore: epoch,
      changesBefore: new Date(Date.now() + 60_000).toISOString(),
    })
    const feed = new ChangeFeed(store)
    for (const since of [0, 2, 5]) {
      expect(await feed.start(since)).toEqual({
        ok: true,
        value: { missed: [], reset: true, seq: 4 },
      })
    }
    // The purge logged nothing: a reader that had seen every change has missed none.
    expect(await feed.start(3)).toMatchObject({ ok: true, value: { reset: false, seq: 4 } })
  })

  it('tells a reader to reset when what it missed is older than the replay window, though the log keeps it', async () => {
    const { store } = await siteWithPosts(3)
    const dayAndAMinuteLater = () => new Date(Date.now() + EVENT_REPLAY_WINDOW_MS + 60_000)
    expect(await new ChangeFeed(store, undefined, dayAndAMinuteLater).start(1)).toEqual({
      ok: true,
      value: { missed: [], reset: true, seq: 3 },
    })
    // Nothing missed: nothing too old to tell.
    expect(await new ChangeFeed(store, undefined, dayAndAMinuteLater).start(3)).toMatchObject({
      ok: true,
      value: { reset: false, seq: 3 },
    })
  })

  it('reads the changes after a position for the watcher', async () => {
    const { store } = await siteWithPosts(4)
    const after = await new ChangeFeed(store).after(1, 2)
    expect(after.ok && after.value.map((change) => [change.seq, change.kind])).toEqual([
      [2, 'created'],
      [3, 'created'],
    ])
  })
})
