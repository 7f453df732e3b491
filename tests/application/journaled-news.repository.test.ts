import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import {
  conflict,
  DomainErrorException,
  notFound,
  stale,
  type DomainError,
} from '@/domain/domain-error'
import type { NewsDraft } from '@/domain/news-item.entity'

const draft: NewsDraft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }
const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
const START = Date.UTC(2026, 0, 1)

/** The journal over a memory store, with a clock the test moves by hand. */
function setup() {
  let now = START
  const store = new MemoryNewsStore()
  const journal = new JournaledNewsRepository(store, { now: () => new Date(now) })
  return {
    store,
    journal,
    advance: (ms: number) => (now += ms),
    at: () => new Date(now).toISOString(),
  }
}

const rejection = (error: DomainError) => new DomainErrorException(error)

describe('the journal: revisions', () => {
  it('numbers revisions through create, edit, delete, restore and restoreRevision', async () => {
    const { journal, advance } = setup()
    const item = await journal.create(draft)
    advance(1000)
    const edited = await journal.update(item._id, { body: 'Storm ahead.' })
    advance(1000)
    await journal.remove(item._id)
    advance(1000)
    const back = await journal.restore(item._id)
    advance(1000)
    const reverted = await journal.restoreRevision(item._id, 1)
    expect([item, edited, back, reverted].map((post) => post.revision)).toEqual([1, 2, 4, 5])
    expect(reverted).toEqual({
      ...item,
      updatedAt: new Date(START + 4000).toISOString(),
      revision: 5,
    })
    const history = (await journal.revisions(item._id, {})).items
    expect(
      history.map((revision) => [revision.revision, revision.action, revision.restoredFrom]),
    ).toEqual([
      [5, 'restore', 1],
      [4, 'restore', undefined],
      [3, 'delete', undefined],
      [2, 'edit', undefined],
      [1, 'create', undefined],
    ])
  })

  it('only ever adds to a history: earlier versions stay exactly as recorded', async () => {
    const { journal, advance } = setup()
    const item = await journal.create(draft)
    const before = (await journal.revisions(item._id, {})).items
    for (const title of ['Two', 'Three', 'Four']) {
      advance(1000)
      await journal.update(item._id, { title })
    }
    await journal.restoreRevision(item._id, 2)
    const after = (await journal.revisions(item._id, {})).items
    expect(after).toHaveLength(5)
    expect(after.slice(-before.length)).toEqual(before)
    expect(after[0]).toMatchObject({ title: 'Two', restoredFrom: 2 })
  })

  it('records nothing for an edit that changes nothing', async () => {
    const { journal } = setup()
    const item = await journal.create(draft)
    expect(await journal.update(item._id, { ...draft })).toEqual(item)
    expect((await journal.revisions(item._id, {})).items).toHaveLength(1)
  })
})

describe('the journal: conflicts', () => {
  it('refuses a stale edit with the current post and changes nothing', async () => {
    const { journal } = setup()
    const item = await journal.create(draft)
    const current = await journal.update(item._id, { title: 'Theirs' })
    await expect(journal.update(item._id, { title: 'Mine' }, { ifRevision: [1] })).rejects.toEqual(
      rejection(stale(current)),
    )
    await expect(journal.remove(item._id, { ifRevision: [1] })).rejects.toEqual(
      rejection(stale(current)),
    )
    expect(await journal.get(item._id)).toEqual(current)
    expect((await journal.revisions(item._id, {})).items).toHaveLength(2)
  })

  it('answers Conflict(NotInTrash) for restoring a live post, changing nothing', async () => {
    const { journal } = setup()
    const item = await journal.create(draft)
    await expect(journal.restore(item._id)).rejects.toEqual(rejection(conflict('NotInTrash')))
    expect((await journal.revisions(item._id, {})).items).toHaveLength(1)
  })

  it('answers Conflict(InTrash) for restoring a version of a trashed post, NotFound for an unknown number', async () => {
    const { journal } = setup()
    const item = await journal.create(draft)
    await expect(journal.restoreRevision(item._id, 2)).rejects.toEqual(rejection(notFound()))
    await journal.remove(item._id)
    await expect(journal.restoreRevision(item._id, 1)).rejects.toEqual(
      rejection(conflict('InTrash')),
    )
    await expect(journal.restoreRevision(item._id, 7)).rejects.toEqual(rejection(notFound()))
    await expect(journal.restoreRevision('never-was', 1)).rejects.toEqual(rejection(notFound()))
    expect((await journal.revisions(item._id, {})).items).toHaveLength(2)
  })
})

describe('the journal: idempotent create', () => {
  it('replays the first result for the same key and draft, even after the post changed', async () => {
    const { journal, store, advance } = setup()
    const first = await journal.create(draft, { idempotencyKey: 'k1' })
    advance(HOUR)
    await journal.update(first._id, { title: 'Edited' })
    expect(await journal.create(draft, { idempotencyKey: 'k1' })).toEqual(first)
    expect((await store.list({})).items).toHaveLength(1)
  })

  it('refuses the same key with another draft as KeyReused, creating nothing', async () => {
    const { journal, store } = setup()
    await journal.create(draft, { idempotencyKey: 'k2' })
    await expect(
      journal.create({ ...draft, author: 'Grace' }, { idempotencyKey: 'k2' }),
    ).rejects.toEqual(rejection(conflict('KeyReused')))
    expect((await store.list({})).items).toHaveLength(1)
  })

  it('forgets a key after 24 hours: the same key then creates a new post', async () => {
    const { journal, advance } = setup()
    const first = await journal.create(draft, { idempotencyKey: 'k3' })
    advance(DAY - 1)
    expect(await journal.create(draft, { idempotencyKey: 'k3' })).toEqual(first)
    advance(1)
    const second = await journal.create(draft, { idempotencyKey: 'k3' })
    expect(second._id).not.toBe(first._id)
    expect(await journal.create(draft, { idempotencyKey: 'k3' })).toEqual(second)
  })

  it('creates a post per call without a key', async () => {
    const { journal, store } = setup()
    await journal.create(draft)
    await journal.create(draft)
    expect((await store.list({})).items).toHaveLength(2)
  })
})

describe('the journal: purge', () => {
  it('removes posts trashed before the cutoff with their histories, and expired keys, but not younger ones', async () => {
    const { journal, store, advance } = setup()
    const old = await journal.create({ ...draft, title: 'Old' }, { idempotencyKey: 'old-key' })
    await journal.remove(old._id)
    advance(20 * DAY)
    const young = await journal.create(
      { ...draft, title: 'Young' },
      { idempotencyKey: 'young-key' },
    )
    await journal.remove(young._id)
    advance(10 * DAY + 1)
    // `old` was trashed 30 days and 1 ms ago; `young` 10 days ago; both keys are older than 24 h.
    expect(await journal.purge(30)).toEqual({ posts: 1, keys: 2 })
    expect(await store.find(old._id)).toBeUndefined()
    await expect(journal.revisions(old._id, {})).rejects.toEqual(rejection(notFound()))
    expect((await journal.trash({})).items.map((item) => item._id)).toEqual([young._id])
    expect((await journal.revisions(young._id, {})).items).toHaveLength(2)

    const live = await journal.create(draft, { idempotencyKey: 'fresh-key' })
    expect(await journal.purge(30)).toEqual({ posts: 0, keys: 0 })
    expect(await journal.create(draft, { idempotencyKey: 'fresh-key' })).toEqual(live)
    expect(await journal.purge(5)).toEqual({ posts: 1, keys: 0 })
  })
})
