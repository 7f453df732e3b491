import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { UndoChange } from '@/application/undo-change.use-case'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import { conflict, notFound } from '@/domain/domain-error'
import type { NewsDraft } from '@/domain/news-item.entity'

const VANDAL = 'bad0bad0ba'
const PATROL = 'c0ffee0c0f'
const draft: NewsDraft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }

function setup() {
  const journal = new JournaledNewsRepository(new MemoryNewsStore())
  return { journal, undo: new UndoChange(journal) }
}

describe('Undo this change', () => {
  it('brings back the version before an edit that is still the newest, by the one who undoes it', async () => {
    const { journal, undo } = setup()
    const post = await journal.create(draft)
    await journal.update(post._id, { title: 'Spam' }, undefined, VANDAL)
    expect(
      await undo.execute({ id: post._id, kind: 'edited', revision: 2, editor: PATROL }),
    ).toEqual({ ok: true, value: { kind: 'revert', toRevision: 1 } })
    expect(await journal.get(post._id)).toMatchObject({ title: draft.title, revision: 3 })
    const [newest] = (await journal.revisions(post._id, {})).items
    expect(newest).toMatchObject({ editor: PATROL, restoredFrom: 1 })
  })

  it('moves a new post to the trash, and brings a deleted one back', async () => {
    const { journal, undo } = setup()
    const spam = await journal.create({ ...draft, title: 'Spam' }, { editor: VANDAL })
    expect(await undo.execute({ id: spam._id, kind: 'created', revision: 1 })).toMatchObject({
      ok: true,
      value: { kind: 'trash' },
    })
    await expect(journal.get(spam._id)).rejects.toMatchObject({ code: 'NotFound' })
    const kept = await journal.create(draft)
    await journal.remove(kept._id, undefined, VANDAL)
    expect(await undo.execute({ id: kept._id, kind: 'deleted', revision: 2 })).toMatchObject({
      ok: true,
      value: { kind: 'untrash' },
    })
    expect(await journal.get(kept._id)).toMatchObject({ title: draft.title, revision: 3 })
  })

  it('does nothing to a post changed since: Stale with it as it is, or InTrash once deleted', async () => {
    const { journal, undo } = setup()
    const post = await journal.create(draft)
    await journal.update(post._id, { title: 'Spam' }, undefined, VANDAL)
    const fixed = await journal.update(post._id, { title: 'Fixed by hand' })
    const stale = await undo.execute({ id: post._id, kind: 'edited', revision: 2 })
    expect(stale).toEqual({ ok: false, error: { code: 'Stale', current: fixed } })
    await journal.remove(post._id)
    expect(await undo.execute({ id: post._id, kind: 'edited', revision: 2 })).toEqual({
      ok: false,
      error: conflict('InTrash'),
    })
    expect((await journal.revisions(post._id, {})).items).toHaveLength(4)
  })

  it('offers no undo for a first version edited, nor for a post that never was', async () => {
    const { undo } = setup()
    expect(await undo.execute({ id: 'news-1', kind: 'edited', revision: 1 })).toEqual({
      ok: false,
      error: notFound(),
    })
    expect(await undo.execute({ id: 'news-9', kind: 'created', revision: 1 })).toEqual({
      ok: false,
      error: notFound(),
    })
  })
})
