import type { AddressInfo } from 'node:net'
import { CreateNews } from '@/application/create-news.use-case'
import { EditNews } from '@/application/edit-news.use-case'
import { ListNews } from '@/application/list-news.use-case'
import { ListRevisions } from '@/application/list-revisions.use-case'
import { SearchNews } from '@/application/search-news.use-case'
import { HttpNewsRepository } from '@/adapters/http/http-news.repository'
import { RuntimeConfigClient } from '@/adapters/http/runtime-config.client'
import type { ComposedServer } from '@/composition/server/server.composition'
import { forbidden } from '@/domain/domain-error'
import { OperatorTools } from '@/application/operator-tools'
import { SqlModerationStore } from '@/adapters/sql/moderation.store'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import { domainErrorOf } from '../support/domain-error-of'
import { composeTestServer } from './server-fixture'

// The browser's adapters against the real server: the two halves of the hexagon meet.
let server: ComposedServer
let repository: HttpNewsRepository
let baseUrl: string

beforeAll(async () => {
  server = await composeTestServer()
  await server.app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`
  repository = new HttpNewsRepository({ baseUrl })
})

afterAll(async () => {
  await server.close()
})

/** Every page a use case answers, following its `next` cursor until none is left. */
async function everyPage<Item = NewsItem>(
  pageAt: (
    cursor: string | undefined,
  ) => Promise<
    { ok: true; value: { items: readonly Item[]; next?: string } } | { ok: false; error: unknown }
  >,
): Promise<{ seen: Item[]; pages: number }> {
  const seen: Item[] = []
  let cursor: string | undefined
  let pages = 0
  do {
    const page = await pageAt(cursor)
    if (!page.ok) throw new Error('a page failed')
    seen.push(...page.value.items)
    cursor = page.value.next
    pages += 1
  } while (cursor !== undefined)
  return { seen, pages }
}

describe('the browser adapters against the real server', () => {
  it('create, read, edit and delete a post through the HTTP repository, which then finds it in the trash', async () => {
    const created = await repository.create({ title: 'Tide', body: 'High\nand low', author: 'Ada' })
    expect(await repository.get(created._id)).toEqual(created)

    const edited = await repository.update(created._id, { title: 'Tide turns' })
    expect(edited).toEqual({
      ...created,
      title: 'Tide turns',
      updatedAt: edited.updatedAt,
      revision: 2,
    })

    await repository.remove(created._id)
    // Not found among the live posts; the answer names it in the trash, where it can come back.
    expect(await domainErrorOf(repository.get(created._id))).toEqual({
      code: 'NotFound',
      trashed: {
        ...edited,
        revision: 3,
        updatedAt: expect.any(String),
        deletedAt: expect.any(String),
      },
    })
    expect(await domainErrorOf(repository.remove(created._id))).toEqual({ code: 'NotFound' })
  })

  it('page through the list by following the server’s Link header, newest first', async () => {
    const create = new CreateNews(repository)
    const titles: string[] = []
    for (let n = 1; n <= 30; n += 1) {
      const result = await create.execute({ title: `Post ${n}`, body: 'Body.', author: 'Ada' })
      if (!result.ok) throw new Error('create failed')
      titles.unshift(result.value.title)
    }
    const list = new ListNews(repository)
    const { seen, pages } = await everyPage((cursor) => list.execute({ cursor }))
    expect(pages).toBe(2)
    expect(seen.map((item) => item.title)).toEqual(titles)
  })

  it('search through the HTTP repository, following the Link header, which keeps the query', async () => {
    const create = new CreateNews(repository)
    const expected: string[] = []
    for (let n = 1; n <= 5; n += 1) {
      const result = await create.execute({ title: `Café ${n}`, body: 'Body.', author: 'Ada' })
      if (!result.ok) throw new Error('create failed')
      expected.unshift(result.value.title)
    }
    await create.execute({ title: 'Tea', body: 'Body.', author: 'Ada' })
    const search = new SearchNews(repository)
    const { seen, pages } = await everyPage((cursor) =>
      search.execute({ q: 'CAFE', limit: 2, cursor }),
    )
    expect(pages).toBe(3)
    expect(seen.map((item) => item.title)).toEqual(expected)
  })

  it('bring the server’s field messages back as the domain’s, word for word', async () => {
    const refused = await domainErrorOf(
      repository.create({ title: ' ', body: 'b'.repeat(501), author: 'A' }),
    )
    expect(refused).toEqual({
      code: 'ValidationFailed',
      fields: { title: 'Sorry, title is required', body: 'Must be 500 characters or less' },
    })
  })

  it('refuse an edit the domain refuses before it reaches the server', async () => {
    const created = await repository.create({ title: 'Kept', body: 'Body.', author: 'Ada' })
    const result = await new EditNews(repository).execute({
      id: created._id,
      changes: { author: 'x'.repeat(31) },
    })
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'ValidationFailed',
        fields: { author: 'Name must be less than 30 characters' },
      },
    })
    expect(await repository.get(created._id)).toEqual(created)
  })

  it('create once with an Idempotency-Key, however often the submission is sent', async () => {
    const draft = { title: 'Only once', body: 'Sent twice.', author: 'Ada' }
    const key = `submit-${crypto.randomUUID()}`

    const first = await repository.create(draft, { idempotencyKey: key })
    const again = await repository.create(draft, { idempotencyKey: key })
    const reused = await domainErrorOf(
      repository.create({ ...draft, body: 'Another post.' }, { idempotencyKey: key }),
    )

    expect(again).toEqual(first)
    expect(reused).toEqual({ code: 'Conflict', reason: 'KeyReused' })
    const { items } = await repository.list({ limit: 100 })
    expect(items.filter((item) => item.title === 'Only once')).toEqual([first])
  })

  it('refuse an edit or delete from a stale copy with the stored post, and change nothing', async () => {
    const mine = await repository.create({ title: 'Draft', body: 'Body.', author: 'Ada' })
    const theirs = await repository.update(mine._id, { title: 'Theirs' }, { ifRevision: [1] })

    const edit = await domainErrorOf(
      repository.update(mine._id, { title: 'Mine' }, { ifRevision: [mine.revision] }),
    )
    const removal = await domainErrorOf(repository.remove(mine._id, { ifRevision: [1] }))

    expect(edit).toEqual({ code: 'Stale', current: theirs })
    expect(removal).toEqual({ code: 'Stale', current: theirs })
    expect(await repository.get(mine._id)).toEqual(theirs)
    // A deliberate overwrite names the version the visitor has now seen.
    const overwritten = await repository.update(mine._id, { title: 'Mine' }, { ifRevision: [2] })
    expect(overwritten).toMatchObject({ title: 'Mine', revision: 3 })
  })

  it('delete to the trash, list the trash, and restore under the same id', async () => {
    const created = await repository.create({ title: 'Binned', body: 'Body.', author: 'Ada' })

    await repository.remove(created._id, { ifRevision: [1] })
    const { items } = await repository.trash({ limit: 100 })
    const restored = await repository.restore(created._id)

    expect(items[0]).toMatchObject({ _id: created._id, title: 'Binned', revision: 2 })
    expect(Date.parse(items[0]?.deletedAt ?? '')).not.toBeNaN()
    expect(restored).toMatchObject({ _id: created._id, title: 'Binned', revision: 3 })
    expect(await repository.get(created._id)).toEqual(restored)
    expect(await domainErrorOf(repository.restore(created._id))).toEqual({
      code: 'Conflict',
      reason: 'NotInTrash',
    })
    expect(await domainErrorOf(repository.restore('never-existed'))).toEqual({ code: 'NotFound' })
  })

  it('page through the trash by following its Link header, newest deletion first', async () => {
    const ids: string[] = []
    for (let n = 1; n <= 3; n += 1) {
      const created = await repository.create({ title: `Gone ${n}`, body: 'B.', author: 'Ada' })
      await repository.remove(created._id)
      ids.unshift(created._id)
    }

    const first = await repository.trash({ limit: 2 })
    const second = await repository.trash({ limit: 2, cursor: first.next })

    expect(first.next?.startsWith(`${baseUrl}/api/trash?`)).toBe(true)
    expect([...first.items, ...second.items].slice(0, 3).map((item) => item._id)).toEqual(ids)
  })

  it('restore an old version only while the post is at the revision named, else Stale with it', async () => {
    const created = await repository.create({ title: 'First', body: 'Body.', author: 'Ada' })
    const defaced = await repository.update(created._id, { title: 'Defaced' })

    expect(
      await domainErrorOf(
        repository.restoreRevision(created._id, 1, undefined, { ifRevision: [1] }),
      ),
    ).toEqual({ code: 'Stale', current: defaced })
    const restored = await repository.restoreRevision(created._id, 1, undefined, {
      ifRevision: [2],
    })
    expect(restored).toMatchObject({ title: 'First', revision: 3 })
  })

  it('list every revision newest first, and restore an old one as a new revision', async () => {
    const created = await repository.create({ title: 'First', body: 'Body.', author: 'Ada' })
    await repository.update(created._id, { title: 'Defaced' })

    const restored = await repository.restoreRevision(created._id, 1)
    const { items: history, next } = await repository.revisions(created._id, {})

    expect(restored).toMatchObject({ _id: created._id, title: 'First', revision: 3 })
    expect(history.map((r) => [r.revision, r.action, r.title, r.restoredFrom])).toEqual([
      [3, 'restore', 'First', 1],
      [2, 'edit', 'Defaced', undefined],
      [1, 'create', 'First', undefined],
    ])
    expect(next).toBeUndefined()
    expect(await domainErrorOf(repository.restoreRevision(created._id, 9))).toEqual({
      code: 'NotFound',
    })
    expect(await domainErrorOf(repository.revisions('never-existed', {}))).toEqual({
      code: 'NotFound',
    })
  })

  it('keep a trashed post’s history readable, but restore none of its versions', async () => {
    const created = await repository.create({ title: 'Kept', body: 'Body.', author: 'Ada' })
    await repository.remove(created._id)

    const { items: history } = await repository.revisions(created._id, {})

    expect(history.map((r) => r.action)).toEqual(['delete', 'create'])
    expect(await domainErrorOf(repository.restoreRevision(created._id, 1))).toEqual({
      code: 'Conflict',
      reason: 'InTrash',
    })
  })

  it('page through a post’s history by the server’s Link header, to its first version', async () => {
    const created = await repository.create({ title: 'Draft 0', body: 'Body.', author: 'Ada' })
    for (let n = 1; n <= 6; n += 1) await repository.update(created._id, { title: `Draft ${n}` })
    await repository.remove(created._id)
    const list = new ListRevisions(repository)
    const pageAt = (cursor: string | undefined) => list.execute(created._id, { limit: 3, cursor })

    const first = await pageAt(undefined)
    const { seen, pages } = await everyPage<NewsRevision>(pageAt)

    expect(first.ok && first.value.next).toMatch(`${baseUrl}/api/news/${created._id}/revisions?`)
    expect(pages).toBe(3)
    expect(seen.map((revision) => revision.title)).toEqual([
      'Draft 6',
      ...[6, 5, 4, 3, 2, 1, 0].map((n) => `Draft ${n}`),
    ])
  })

  it('read the outbox settings from /api/config when no EmailJS account is set', async () => {
    const settings = await new RuntimeConfigClient({ baseUrl }).loadEmailJsSettings()
    expect(settings).toEqual({
      origin: '',
      serviceId: 'newswire_outbox',
      templateId: 'contact_form',
      publicKey: 'newswire-outbox',
    })
  })
})

describe('the browser adapters against the real server’s write limit', () => {
  let limited: ComposedServer

  beforeAll(async () => {
    limited = await composeTestServer({ WRITE_RATE_LIMIT: '1' })
    await limited.app.listen({ port: 0, host: '127.0.0.1' })
  })

  afterAll(async () => {
    await limited.close()
  })

  it('turn a 429 into RateLimited with the server’s Retry-After', async () => {
    const port = (limited.app.server.address() as AddressInfo).port
    const client = new HttpNewsRepository({ baseUrl: `http://127.0.0.1:${port}` })
    const draft = { title: 'Busy', body: 'Body.', author: 'Ada' }
    await client.create(draft)

    const refused = await domainErrorOf(client.create(draft))

    expect(refused).toMatchObject({ code: 'RateLimited' })
    const seconds = (refused as { retryAfterSeconds: number }).retryAfterSeconds
    expect(seconds).toBeGreaterThanOrEqual(1)
    expect(seconds).toBeLessThanOrEqual(60)
  })
})

describe('the browser adapters against the operator’s blocks and protections', () => {
  const draft = { title: 'Harbour', body: 'Opens.', author: 'Ada' }

  it('turn a 403 of a blocked client into Forbidden with the block’s reason and end', async () => {
    const tools = new OperatorTools(new SqlModerationStore(server.database), { operator: 'test' })
    const block = await tools.block(
      { kind: 'range', target: '127.0.0.1/32' },
      { forMs: 3_600_000, reason: 'spam wave' },
    )
    try {
      expect(await domainErrorOf(repository.create(draft))).toEqual(
        forbidden({
          reason: 'blocked',
          note: 'spam wave',
          until: block.ok ? block.value.expiresAt : null,
        }),
      )
    } finally {
      await tools.unblock('127.0.0.1/32')
    }
    expect((await repository.create(draft)).title).toBe('Harbour')
  })

  it('read a protected post as protected, and turn a 403 on it into Forbidden', async () => {
    const post = await repository.create(draft)
    const tools = new OperatorTools(new SqlModerationStore(server.database), { operator: 'test' })
    await tools.protect(post._id, 'edit war')

    expect(await repository.get(post._id)).toMatchObject({ _id: post._id, protected: true })
    expect(await domainErrorOf(repository.update(post._id, { title: 'Spam' }))).toEqual(
      forbidden({ reason: 'protected' }),
    )
    expect(await domainErrorOf(repository.remove(post._id))).toEqual(
      forbidden({ reason: 'protected' }),
    )
  })
})
