import type { CreateNews } from '@/application/create-news.use-case'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { useCasesFor } from '@/application/use-cases'
import { MemoryMailer } from '@/adapters/memory/memory.mailer'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import { encodeRevisionCursor, INVALID_CURSOR_MESSAGE } from '@/adapters/shared/keyset-cursor'
import {
  DEFAULT_HISTORY_PAGE_SIZE,
  MAX_HISTORY_PAGE_SIZE,
} from '@/domain/ports/news-repository.port'
import type { NewsDraft, NewsItem } from '@/domain/news-item.entity'
import { faulty } from '../support/faulty-port'

const draft: NewsDraft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }

function setup() {
  let tick = 0
  const now = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++))
  const repository = faulty(new JournaledNewsRepository(new MemoryNewsStore(), { now }))
  const useCases = useCasesFor({ news: repository, mailer: new MemoryMailer() })
  return {
    repository,
    list: useCases.listNews,
    get: useCases.getNewsItem,
    create: useCases.createNews,
    edit: useCases.editNews,
    remove: useCases.deleteNews,
    listTrash: useCases.listTrash,
    restore: useCases.restoreNews,
    revisions: useCases.listRevisions,
    restoreRevision: useCases.restoreRevision,
  }
}

async function createdPost(create: CreateNews, values: NewsDraft = draft): Promise<NewsItem> {
  const result = await create.execute(values)
  if (!result.ok) throw new Error('setup failed')
  return result.value
}

describe('create news', () => {
  it('stores a valid draft, trimmed, as revision 1 with an id and dates', async () => {
    const { create, get } = setup()
    const result = await create.execute({ ...draft, title: '  Harbour reopens  ' })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value).toMatchObject(draft)
    expect(result.value._id).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(result.value.createdAt).toBe('2026-01-01T00:00:00.000Z')
    expect(result.value.updatedAt).toBe('2026-01-01T00:00:00.000Z')
    expect(result.value.revision).toBe(1)
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

  it('answers a repeat with the same idempotency key with the first post, creating nothing', async () => {
    const { create, list } = setup()
    const first = await create.execute(draft, { idempotencyKey: 'form-submit-1' })
    const again = await create.execute(
      { ...draft, title: ' Harbour reopens ' },
      { idempotencyKey: 'form-submit-1' },
    )
    expect(again).toEqual(first)
    const listed = await list.execute()
    expect(listed.ok && listed.value.items).toHaveLength(1)
  })

  it('refuses another draft under a used idempotency key as KeyReused', async () => {
    const { create } = setup()
    await create.execute(draft, { idempotencyKey: 'form-submit-2' })
    expect(
      await create.execute({ ...draft, body: 'Else.' }, { idempotencyKey: 'form-submit-2' }),
    ).toEqual({
      ok: false,
      error: { code: 'Conflict', reason: 'KeyReused' },
    })
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

  it('refuses a cursor it did not hand out, rather than starting again at page 1', async () => {
    const { create, list } = setup()
    await create.execute(draft)
    expect(await list.execute({ cursor: 'news-1' })).toEqual({
      ok: false,
      error: { code: 'ValidationFailed', fields: { cursor: INVALID_CURSOR_MESSAGE } },
    })
  })
})

describe('get, edit and delete news', () => {
  it('reports NotFound for an unknown or malformed id', async () => {
    const { get, edit, remove } = setup()
    const notFound = { ok: false, error: { code: 'NotFound' } }
    expect(await get.execute('missing')).toEqual(notFound)
    expect(await get.execute('../etc/passwd')).toEqual(notFound)
    expect(await edit.execute({ id: 'missing', changes: { title: 'New' } })).toEqual(notFound)
    expect(await edit.execute({ id: '../x', changes: { title: 'New' } })).toEqual(notFound)
    expect(await remove.execute('missing')).toEqual(notFound)
    expect(await remove.execute('../x')).toEqual(notFound)
  })

  it('edits only the fields given and checks only those', async () => {
    const { create, edit } = setup()
    const post = await createdPost(create)
    const result = await edit.execute({ id: post._id, changes: { title: ' Tide turns ' } })
    expect(result).toEqual({
      ok: true,
      value: {
        ...post,
        title: 'Tide turns',
        updatedAt: '2026-01-01T00:00:01.000Z',
        revision: 2,
      },
    })
  })

  it('edits on condition only the version the editor started from; else Stale with the stored post', async () => {
    const { create, edit, get } = setup()
    const post = await createdPost(create)
    const first = await edit.execute({
      id: post._id,
      changes: { title: 'First' },
      condition: { ifRevision: [1] },
    })
    if (!first.ok) throw new Error('first edit failed')
    expect(
      await edit.execute({
        id: post._id,
        changes: { title: 'Second' },
        condition: { ifRevision: [1] },
      }),
    ).toEqual({ ok: false, error: { code: 'Stale', current: first.value } })
    expect(await get.execute(post._id)).toEqual({ ok: true, value: first.value })
  })

  it('refuses an edit that breaks a rule', async () => {
    const { create, edit } = setup()
    const post = await createdPost(create)
    const result = await edit.execute({
      id: post._id,
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

  it('deletes a post so that it can no longer be read, only found in the trash', async () => {
    const { create, remove, get } = setup()
    const post = await createdPost(create)
    expect(await remove.execute(post._id)).toEqual({ ok: true, value: undefined })
    expect(await get.execute(post._id)).toEqual({
      ok: false,
      error: {
        code: 'NotFound',
        trashed: {
          ...post,
          revision: 2,
          updatedAt: expect.any(String),
          deletedAt: expect.any(String),
        },
      },
    })
  })

  it('deletes on condition only the version named; else Stale, and the post stays', async () => {
    const { create, edit, remove, get } = setup()
    const post = await createdPost(create)
    const edited = await edit.execute({ id: post._id, changes: { body: 'Changed.' } })
    if (!edited.ok) throw new Error('edit failed')
    expect(await remove.execute(post._id, { ifRevision: [1] })).toEqual({
      ok: false,
      error: { code: 'Stale', current: edited.value },
    })
    expect(await get.execute(post._id)).toEqual(edited)
    expect(await remove.execute(post._id, { ifRevision: [2] })).toEqual({
      ok: true,
      value: undefined,
    })
  })
})

describe('trash, history and restore', () => {
  it('lists deleted posts in the trash, newest deletion first, and restores one under its id', async () => {
    const { create, remove, listTrash, restore, get } = setup()
    const older = await createdPost(create, { ...draft, title: 'Older' })
    const newer = await createdPost(create, { ...draft, title: 'Newer' })
    await remove.execute(older._id)
    await remove.execute(newer._id)
    const trash = await listTrash.execute({ limit: 1 })
    expect(trash.ok && trash.value.items.map((item) => item.title)).toEqual(['Newer'])
    const rest = await listTrash.execute({ cursor: trash.ok ? trash.value.next : undefined })
    expect(rest.ok && rest.value.items.map((item) => item.title)).toEqual(['Older'])

    const restored = await restore.execute(older._id)
    expect(restored.ok && restored.value).toMatchObject({
      _id: older._id,
      title: 'Older',
      revision: 3,
    })
    expect(await get.execute(older._id)).toEqual(restored)
  })

  it('refuses to restore a live post (Conflict NotInTrash) and an unknown one (NotFound)', async () => {
    const { create, restore } = setup()
    const post = await createdPost(create)
    expect(await restore.execute(post._id)).toEqual({
      ok: false,
      error: { code: 'Conflict', reason: 'NotInTrash' },
    })
    expect(await restore.execute('missing')).toEqual({ ok: false, error: { code: 'NotFound' } })
    expect(await restore.execute('../x')).toEqual({ ok: false, error: { code: 'NotFound' } })
  })

  it("lists a post's versions newest first, also in the trash, and NotFound for none", async () => {
    const { create, edit, remove, revisions } = setup()
    const post = await createdPost(create)
    await edit.execute({ id: post._id, changes: { title: 'Second' } })
    await remove.execute(post._id)
    const history = await revisions.execute(post._id)
    expect(history.ok && history.value.items.map((revision) => revision.action)).toEqual([
      'delete',
      'edit',
      'create',
    ])
    expect(history.ok && history.value.next).toBeUndefined()
    expect(await revisions.execute('missing')).toEqual({ ok: false, error: { code: 'NotFound' } })
  })

  it('pages a long history, bounding the page size, and the pages hold every version', async () => {
    const { create, edit, revisions } = setup()
    const post = await createdPost(create)
    for (let index = 1; index <= 120; index += 1) {
      await edit.execute({ id: post._id, changes: { title: `Title ${index}` } })
    }
    const sizeOf = async (limit?: number) => {
      const page = await revisions.execute(post._id, { limit })
      return page.ok ? page.value.items.length : page.error.code
    }
    expect(await sizeOf()).toBe(DEFAULT_HISTORY_PAGE_SIZE)
    expect(await sizeOf(1000)).toBe(MAX_HISTORY_PAGE_SIZE)
    expect(await sizeOf(0)).toBe(1)

    const numbers: number[] = []
    let cursor: string | undefined
    do {
      const page = await revisions.execute(post._id, { limit: 40, cursor })
      if (!page.ok) throw new Error(page.error.code)
      numbers.push(...page.value.items.map((revision) => revision.revision))
      cursor = page.value.next
    } while (cursor !== undefined)
    expect(numbers).toEqual(Array.from({ length: 121 }, (_, index) => 121 - index))
  })

  it('refuses a cursor it did not make, and answers NotFound for a post that never existed when paging', async () => {
    const { create, revisions } = setup()
    const post = await createdPost(create)
    expect(await revisions.execute(post._id, { cursor: 'garbage' })).toMatchObject({
      ok: false,
      error: { code: 'ValidationFailed', fields: { cursor: INVALID_CURSOR_MESSAGE } },
    })
    const first = await revisions.execute(post._id, { limit: 1 })
    expect(first.ok && first.value.next).toBeUndefined()
    const cursor = encodeRevisionCursor(1)
    expect(await revisions.execute('never-existed', { cursor })).toEqual({
      ok: false,
      error: { code: 'NotFound' },
    })
    // The end of a real post's history is an empty page, not NotFound.
    expect(await revisions.execute(post._id, { cursor })).toEqual({
      ok: true,
      value: { items: [] },
    })
  })

  it('restores an old version as a new revision', async () => {
    const { create, edit, restoreRevision, revisions } = setup()
    const post = await createdPost(create)
    await edit.execute({ id: post._id, changes: { title: 'Vandalised' } })
    const result = await restoreRevision.execute({ id: post._id, revision: 1 })
    expect(result.ok && result.value).toMatchObject({ title: draft.title, revision: 3 })
    const history = await revisions.execute(post._id)
    expect(history.ok && history.value.items[0]).toMatchObject({
      action: 'restore',
      restoredFrom: 1,
    })
  })

  it.each([0, -1, 1.5, Number.NaN, 99])(
    'answers NotFound for revision number %s',
    async (revision) => {
      const { create, restoreRevision } = setup()
      const post = await createdPost(create)
      expect(await restoreRevision.execute({ id: post._id, revision })).toEqual({
        ok: false,
        error: { code: 'NotFound' },
      })
    },
  )

  it('reports Unavailable from creating, listing, the trash, history and restores when the repository fails', async () => {
    const { create, list, remove, listTrash, restore, revisions, restoreRevision, repository } =
      setup()
    const post = await createdPost(create)
    await remove.execute(post._id)
    repository.faults.failOn('create', 'list', 'trash', 'restore', 'revisions', 'restoreRevision')
    const unavailable = { ok: false, error: { code: 'Unavailable' } }
    expect(await create.execute(draft)).toEqual(unavailable)
    expect(await list.execute()).toEqual(unavailable)
    expect(await listTrash.execute()).toEqual(unavailable)
    expect(await restore.execute(post._id)).toEqual(unavailable)
    expect(await revisions.execute(post._id)).toEqual(unavailable)
    expect(await restoreRevision.execute({ id: post._id, revision: 1 })).toEqual(unavailable)
  })
})
