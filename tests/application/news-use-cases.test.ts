import { CreateNews } from '@/application/create-news.use-case'
import { DeleteNews } from '@/application/delete-news.use-case'
import { EditNews } from '@/application/edit-news.use-case'
import { GetNewsItem } from '@/application/get-news-item.use-case'
import { ListNews } from '@/application/list-news.use-case'
import { MemoryNewsRepository } from '@/adapters/memory/memory-news.repository'
import type { NewsDraft } from '@/domain/news-item.entity'

const draft: NewsDraft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }

function setup() {
  let tick = 0
  const repository = new MemoryNewsRepository({
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
  })
  return {
    repository,
    list: new ListNews(repository),
    get: new GetNewsItem(repository),
    create: new CreateNews(repository),
    edit: new EditNews(repository),
    remove: new DeleteNews(repository),
  }
}

describe('create news', () => {
  it('stores a valid draft, trimmed, with an id and a creation date', async () => {
    const { create, get } = setup()
    const result = await create.execute({ ...draft, title: '  Harbour reopens  ' })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value).toMatchObject(draft)
    expect(result.value._id).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(result.value.createdAt).toBe('2026-01-01T00:00:00.000Z')
    expect(await get.execute(result.value._id)).toEqual({ ok: true, value: result.value })
  })

  it('refuses an invalid draft with every field message and stores nothing', async () => {
    const { create, list } = setup()
    const result = await create.execute({ title: ' ', body: 'x'.repeat(501), author: 'A' })
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'ValidationFailed',
        fields: { title: 'Sorry, title is required', body: 'Must be 500 characters or less' },
      },
    })
    expect(await list.execute()).toEqual({ ok: true, value: { items: [] } })
  })

  it('keeps line breaks inside the body', async () => {
    const { create } = setup()
    const result = await create.execute({ ...draft, body: 'one\n\ntwo' })
    expect(result.ok && result.value.body).toBe('one\n\ntwo')
  })

  it('never takes an id or a date from the caller', async () => {
    const { create } = setup()
    const sneaky = { ...draft, _id: 'chosen', createdAt: '1999-01-01T00:00:00.000Z' }
    const result = await create.execute(sneaky)
    expect(result.ok && result.value._id).not.toBe('chosen')
    expect(result.ok && result.value.createdAt).not.toBe('1999-01-01T00:00:00.000Z')
  })

  it('reports Unavailable when the repository fails', async () => {
    const { create, repository } = setup()
    repository.faults.failOn('create')
    expect(await create.execute(draft)).toEqual({ ok: false, error: { code: 'Unavailable' } })
  })
})

describe('list news', () => {
  it('lists newest first, a page at a time, with a token for the next page', async () => {
    const { create, list } = setup()
    for (const n of [1, 2, 3]) await create.execute({ ...draft, title: `Post ${n}` })
    const first = await list.execute({ limit: 2 })
    expect(first.ok && first.value.items.map((item) => item.title)).toEqual(['Post 3', 'Post 2'])
    const next = first.ok ? first.value.next : undefined
    expect(next).toBeDefined()
    const second = await list.execute({ limit: 2, cursor: next })
    expect(second.ok && second.value.items.map((item) => item.title)).toEqual(['Post 1'])
    expect(second.ok && second.value.next).toBeUndefined()
  })

  it('bounds the page size between 1 and 100', async () => {
    const { create, list, repository } = setup()
    for (let n = 0; n < 3; n += 1) await create.execute(draft)
    const spy = vi.spyOn(repository, 'list')
    await list.execute({ limit: 10_000 })
    await list.execute({ limit: -5 })
    expect(spy.mock.calls.map(([query]) => query.limit)).toEqual([100, 1])
  })

  it('reports Unavailable when the repository fails', async () => {
    const { list, repository } = setup()
    repository.faults.failOn('list')
    expect(await list.execute()).toEqual({ ok: false, error: { code: 'Unavailable' } })
  })
})

describe('get, edit and delete news', () => {
  it('reports NotFound for an unknown or malformed id', async () => {
    const { get, edit, remove } = setup()
    const notFound = { ok: false, error: { code: 'NotFound' } }
    expect(await get.execute('missing')).toEqual(notFound)
    expect(await get.execute('../etc/passwd')).toEqual(notFound)
    expect(await edit.execute({ id: 'missing', changes: { title: 'New' } })).toEqual(notFound)
    expect(await remove.execute('missing')).toEqual(notFound)
  })

  it('edits only the fields given and checks only those', async () => {
    const { create, edit } = setup()
    const created = await create.execute(draft)
    if (!created.ok) throw new Error('setup failed')
    const result = await edit.execute({ id: created.value._id, changes: { title: ' Tide turns ' } })
    expect(result).toEqual({ ok: true, value: { ...created.value, title: 'Tide turns' } })
  })

  it('refuses an edit that breaks a rule', async () => {
    const { create, edit } = setup()
    const created = await create.execute(draft)
    if (!created.ok) throw new Error('setup failed')
    const result = await edit.execute({
      id: created.value._id,
      changes: { author: 'a'.repeat(31) },
    })
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'ValidationFailed',
        fields: { author: 'Name must be less than 30 characters' },
      },
    })
  })

  it('deletes a post so that it can no longer be read', async () => {
    const { create, remove, get } = setup()
    const created = await create.execute(draft)
    if (!created.ok) throw new Error('setup failed')
    expect(await remove.execute(created.value._id)).toEqual({ ok: true, value: undefined })
    expect(await get.execute(created.value._id)).toEqual({ ok: false, error: { code: 'NotFound' } })
  })
})
