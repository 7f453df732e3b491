import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { UndoChangesSince } from '@/application/undo-changes.use-case'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import type { NewsDraft } from '@/domain/news-item.entity'
import { MAX_HISTORY_PAGE_SIZE } from '@/domain/ports/news-repository.port'

const MINUTE = 60 * 1000
const START = Date.UTC(2026, 0, 1, 12)

function setup() {
  let now = START
  const store = new MemoryNewsStore()
  const journal = new JournaledNewsRepository(store, { now: () => new Date(now) })
  const post = (title: string): NewsDraft => ({ title, body: `${title} body.`, author: 'Ada' })
  return {
    store,
    journal,
    post,
    advance: (ms = MINUTE) => (now += ms),
    undo: new UndoChangesSince(store, journal),
  }
}

describe('undo changes since an instant', () => {
  it('untrashes posts deleted and reverts posts edited since then, as new revisions', async () => {
    const { journal, post, advance, undo } = setup()
    const edited = await journal.create(post('Edited'))
    const deleted = await journal.create(post('Deleted'))
    const both = await journal.create(post('Both'))
    const untouched = await journal.create(post('Untouched'))
    advance()
    const since = new Date(START + MINUTE)
    advance()
    await journal.update(edited._id, { title: 'Vandalised' })
    await journal.update(edited._id, { body: 'Vandalised again.' })
    await journal.remove(deleted._id)
    await journal.update(both._id, { title: 'Vandalised' })
    await journal.remove(both._id)
    advance()

    const result = await undo.execute(since)

    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value).toEqual(
      expect.arrayContaining([
        { kind: 'reverted', id: edited._id, title: 'Edited', toRevision: 1, revision: 4 },
        { kind: 'untrashed', id: deleted._id, title: 'Deleted', revision: 3 },
        { kind: 'untrashed', id: both._id, title: 'Vandalised', revision: 4 },
        { kind: 'reverted', id: both._id, title: 'Both', toRevision: 1, revision: 5 },
      ]),
    )
    expect(result.value).toHaveLength(4)
    for (const original of [edited, deleted, both, untouched]) {
      expect(await journal.get(original._id)).toMatchObject(post(original.title))
    }
    expect((await journal.revisions(untouched._id, {})).items).toHaveLength(1)
    // The undo is itself history, so that it can be undone.
    expect(
      (await journal.revisions(both._id, {})).items.map((revision) => revision.action),
    ).toEqual(['restore', 'restore', 'delete', 'edit', 'create'])
  })

  it('leaves alone posts created after the instant, and posts already in the trash then', async () => {
    const { journal, post, advance, undo, store } = setup()
    const trashedEarlier = await journal.create(post('Trashed earlier'))
    await journal.remove(trashedEarlier._id)
    advance()
    const since = new Date(START + MINUTE)
    advance()
    const fresh = await journal.create(post('Fresh'))
    await journal.update(fresh._id, { title: 'Fresh, edited' })
    await journal.remove(fresh._id)

    expect(await undo.execute(since)).toEqual({ ok: true, value: [] })
    expect((await store.trash({})).items.map((item) => item._id).sort()).toEqual(
      [trashedEarlier._id, fresh._id].sort(),
    )
  })

  it('does nothing when nothing changed since the instant, and nothing the second time', async () => {
    const { journal, post, advance, undo } = setup()
    const item = await journal.create(post('Stable'))
    advance()
    const since = new Date(START + MINUTE)
    expect(await undo.execute(since)).toEqual({ ok: true, value: [] })
    advance()
    await journal.update(item._id, { title: 'Changed' })
    advance()
    const first = await undo.execute(since)
    expect(first.ok && first.value).toHaveLength(1)
    expect(await undo.execute(since)).toEqual({ ok: true, value: [] })
    expect((await journal.get(item._id)).title).toBe('Stable')
  })

  it('reverts a post whose history since the instant runs over many pages, reading it in bounded pages', async () => {
    const { journal, post, advance, store, undo } = setup()
    const item = await journal.create(post('Long'))
    await journal.update(item._id, { title: 'Long, edited before' })
    advance()
    const since = new Date(START + MINUTE)
    advance()
    const edits = MAX_HISTORY_PAGE_SIZE * 2 + 30
    for (let index = 1; index <= edits; index += 1) {
      await journal.update(item._id, { title: `Vandalised ${index}` })
    }
    await journal.remove(item._id)
    const limits: Array<number | undefined> = []
    const revisions = store.revisions.bind(store)
    store.revisions = (id, query) => {
      limits.push(query.limit)
      return revisions(id, query)
    }

    const result = await undo.execute(since)

    const latest = edits + 3
    expect(result).toEqual({
      ok: true,
      value: [
        { kind: 'untrashed', id: item._id, title: `Vandalised ${edits}`, revision: latest + 1 },
        {
          kind: 'reverted',
          id: item._id,
          title: 'Long, edited before',
          toRevision: 2,
          revision: latest + 2,
        },
      ],
    })
    // Every version back to the one current then, and no page larger than the bound.
    expect(limits).toEqual([MAX_HISTORY_PAGE_SIZE, MAX_HISTORY_PAGE_SIZE, MAX_HISTORY_PAGE_SIZE])
  })
})
