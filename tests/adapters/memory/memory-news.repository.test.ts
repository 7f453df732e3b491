import {
  MemoryNewsRepository,
  type MemoryNewsOperation,
} from '@/adapters/memory/memory-news.repository'
import { DomainErrorException, unavailable } from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'

const seeded: NewsItem = {
  _id: 'seeded-1',
  title: 'Seeded',
  body: 'From the fixture.',
  author: 'Ada',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  revision: 3,
}

describe('MemoryNewsRepository', () => {
  it('starts with its seed, each post with a one-revision history numbered as the post', async () => {
    const news = new MemoryNewsRepository({ seed: [seeded] })
    expect(await news.get('seeded-1')).toEqual(seeded)
    expect((await news.revisions('seeded-1', {})).items).toEqual([
      {
        revision: 3,
        title: 'Seeded',
        body: 'From the fixture.',
        author: 'Ada',
        action: 'edit',
        at: '2026-01-02T00:00:00.000Z',
        editor: 'unknown',
      },
    ])
    const edited = await news.update('seeded-1', { title: 'Edited' }, { ifRevision: [3] })
    expect(edited.revision).toBe(4)
  })

  it('numbers its own posts news-1, news-2 … skipping seeded ids, and dates them by its clock', async () => {
    const news = new MemoryNewsRepository({
      seed: [{ ...seeded, _id: 'news-1' }],
      now: () => new Date('2026-03-03T03:03:03.333Z'),
    })
    const item = await news.create({ title: 'T', body: 'B', author: 'A' })
    expect(item).toMatchObject({
      _id: 'news-2',
      createdAt: '2026-03-03T03:03:03.333Z',
      revision: 1,
    })
  })

  const calls: Record<MemoryNewsOperation, (news: MemoryNewsRepository) => Promise<unknown>> = {
    list: (news) => news.list({}),
    search: (news) => news.search({ text: 'seeded', terms: ['seeded'] }, {}),
    get: (news) => news.get('seeded-1'),
    create: (news) => news.create({ title: 'T', body: 'B', author: 'A' }),
    update: (news) => news.update('seeded-1', { title: 'Changed' }),
    remove: (news) => news.remove('seeded-1'),
    restore: (news) => news.restore('seeded-1'),
    revisions: (news) => news.revisions('seeded-1', {}),
    restoreRevision: (news) => news.restoreRevision('seeded-1', 3),
    trash: (news) => news.trash({}),
    changes: (news) => news.changes({}),
  }

  it.each(Object.keys(calls) as MemoryNewsOperation[])(
    'fails %s as Unavailable when told to, changing nothing, and works again after recover()',
    async (operation) => {
      const news = new MemoryNewsRepository({ seed: [seeded] })
      news.faults.failOn(operation)
      await expect(calls[operation](news)).rejects.toEqual(new DomainErrorException(unavailable()))
      expect(await news.store.find('seeded-1')).toMatchObject({ revision: 3, deletedAt: null })
      expect((await news.store.list({})).items).toHaveLength(1)
      news.faults.recover()
      if (operation === 'restore') await news.remove('seeded-1')
      await expect(calls[operation](news)).resolves.not.toThrow()
    },
  )

  it('holds every call until released', async () => {
    const news = new MemoryNewsRepository({ seed: [seeded] })
    const release = news.faults.hold()
    let removed = false
    const removing = news.remove('seeded-1').then(() => (removed = true))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(removed).toBe(false)
    expect(await news.store.find('seeded-1')).toMatchObject({ deletedAt: null })
    release()
    await removing
    expect(removed).toBe(true)
    expect((await news.trash({})).items.map((item) => item._id)).toEqual(['seeded-1'])
  })
})
