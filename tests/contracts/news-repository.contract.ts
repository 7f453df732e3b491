import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import {
  encodeCursor,
  INVALID_CURSOR_MESSAGE,
  isValidCursor,
} from '@/adapters/shared/keyset-cursor'
import { conflict, inTrash, notFound, stale, validationFailed } from '@/domain/domain-error'
import type { NewsDraft, NewsItem } from '@/domain/news-item.entity'
import { isNewsId } from '@/domain/news-id'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { MAX_REVISION } from '@/domain/rules/news-history.rules'
import type { NewsStore } from '@/domain/ports/news-store.port'
import type { NewsStoreKind } from '../support/news-stores'
import { runCleanups } from '../support/test-databases'

const draft: NewsDraft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }

export const START = Date.UTC(2026, 0, 1, 9, 30, 0, 123)

/** A clock that moves one step per reading; step 0 keeps every change in the same millisecond. */
export function clock(stepMs = 1000, start = START): () => Date {
  let reading = 0
  return () => new Date(start + stepMs * reading++)
}

/** Newest first; the id (in byte order) breaks a tie. */
function newestFirst(a: NewsItem, b: NewsItem): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return a._id < b._id ? 1 : a._id > b._id ? -1 : 0
}

/**
 * What NewsWire's server repository must do on every store: the journal
 * (JournaledNewsRepository) over memory, SQLite and PostgreSQL behaves the same
 * (news-port.contract.test.ts runs it on each).
 */
export function newsRepositoryContract(kind: NewsStoreKind): void {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  async function open(now?: () => Date) {
    const { store } = await kind.open(cleanups)
    return { store, repository: new JournaledNewsRepository(store, { now }) }
  }

  async function createMany(repository: JournaledNewsRepository, count: number) {
    const items: NewsItem[] = []
    for (let index = 0; index < count; index += 1) {
      items.push(await repository.create({ ...draft, title: `Post ${index}` }))
    }
    return items
  }

  async function readAllPages(repository: JournaledNewsRepository, limit: number) {
    const pages: NewsItem[][] = []
    let cursor: string | undefined
    do {
      const page = await repository.list({ limit, cursor })
      pages.push([...page.items])
      cursor = page.next
    } while (cursor !== undefined && pages.length < 1000)
    return pages
  }

  describe('create, get, update, remove', () => {
    it('creates a post as revision 1 with an opaque URL-safe id and ISO dates, and gets it back', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      expect(item).toEqual({
        ...draft,
        _id: item._id,
        createdAt: '2026-01-01T09:30:00.123Z',
        updatedAt: '2026-01-01T09:30:00.123Z',
        revision: 1,
      })
      expect(isNewsId(item._id)).toBe(true)
      expect(await repository.get(item._id)).toEqual(item)
    })

    it('gives every post its own id', async () => {
      const { repository } = await open(clock(0))
      const ids = (await createMany(repository, 20)).map((item) => item._id)
      expect(new Set(ids).size).toBe(20)
    })

    it('keeps text exactly, line breaks, quotes and emoji included, in the post and its history', async () => {
      const { repository } = await open()
      const text = {
        title: `It's "quoted" 😀 — naïve; DROP TABLE news; --`,
        body: 'First paragraph.\n\nSecond one, with a tab\tand 👩‍👩‍👧 a family.',
        author: 'Zoë Ø’Brien',
      }
      const item = await repository.create(text)
      expect(await repository.get(item._id)).toEqual(item)
      expect(item).toMatchObject(text)
      expect((await repository.revisions(item._id, {})).items[0]).toMatchObject(text)
    })

    it('updates only the fields it is given, as a new revision, keeping the id and creation date', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      const changed = await repository.update(item._id, { title: 'Harbour closes again' })
      expect(changed).toEqual({
        ...item,
        title: 'Harbour closes again',
        updatedAt: '2026-01-01T09:30:01.123Z',
        revision: 2,
      })
      expect(await repository.get(item._id)).toEqual(changed)

      const both = await repository.update(item._id, { body: 'Storm ahead.', author: 'Grace' })
      expect(both).toMatchObject({
        ...draft,
        title: changed.title,
        body: 'Storm ahead.',
        author: 'Grace',
      })
      expect(both.revision).toBe(3)
    })

    it('changes and records nothing for an update without fields or without a change', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      expect(await repository.update(item._id, {})).toEqual(item)
      expect(await repository.update(item._id, { title: draft.title })).toEqual(item)
      expect((await repository.revisions(item._id, {})).items).toHaveLength(1)
    })

    it('leaves other posts alone when it updates or removes one', async () => {
      const { repository } = await open(clock())
      const [first, second] = await createMany(repository, 2)
      if (first === undefined || second === undefined) throw new Error('no posts')
      await repository.update(first._id, { title: 'Changed' })
      await repository.remove(first._id)
      expect(await repository.get(second._id)).toEqual(second)
      expect((await repository.revisions(second._id, {})).items).toHaveLength(1)
    })

    it('moves a removed post to the trash, after which get (naming it there), update and remove report NotFound', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      await repository.remove(item._id)
      const trashed = {
        ...item,
        updatedAt: '2026-01-01T09:30:01.123Z',
        revision: 2,
        deletedAt: '2026-01-01T09:30:01.123Z',
      }
      await expect(repository.get(item._id)).rejects.toEqual(inTrash(trashed))
      await expect(repository.update(item._id, { title: 'x' })).rejects.toEqual(notFound())
      await expect(repository.remove(item._id)).rejects.toEqual(notFound())
      expect((await repository.list({})).items).toEqual([])
      expect((await repository.trash({})).items).toEqual([trashed])
    })

    it.each(['unknown-id', 'not/an id', '', 'x'.repeat(65)])(
      'reports NotFound for every operation on %j',
      async (id) => {
        const { repository } = await open()
        await repository.create(draft)
        await expect(repository.get(id)).rejects.toEqual(notFound())
        await expect(repository.update(id, { title: 'x' })).rejects.toEqual(notFound())
        await expect(repository.update(id, {})).rejects.toEqual(notFound())
        await expect(repository.remove(id)).rejects.toEqual(notFound())
        await expect(repository.restore(id)).rejects.toEqual(notFound())
        await expect(repository.revisions(id, {})).rejects.toEqual(notFound())
        await expect(repository.restoreRevision(id, 1)).rejects.toEqual(notFound())
      },
    )
  })

  describe('history, trash and restore', () => {
    it('restores an old version only while the post is at a revision its condition names', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      const edited = await repository.update(item._id, { title: 'Second title' })
      await expect(
        repository.restoreRevision(item._id, 1, undefined, { ifRevision: [1] }),
      ).rejects.toEqual(stale(edited))
      expect(await repository.get(item._id)).toEqual(edited)
      const reverted = await repository.restoreRevision(item._id, 1, undefined, {
        ifRevision: [2],
      })
      expect(reverted).toMatchObject({ title: draft.title, revision: 3 })
    })

    it('records every change as the next revision, newest first, and only ever adds', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      await repository.update(item._id, { title: 'Second title' })
      await repository.remove(item._id)
      await repository.restore(item._id)
      const reverted = await repository.restoreRevision(item._id, 1)
      expect(reverted).toMatchObject({ ...draft, _id: item._id, revision: 5 })
      const history = (await repository.revisions(item._id, {})).items
      expect(history.map(({ revision, action, title }) => [revision, action, title])).toEqual([
        [5, 'restore', draft.title],
        [4, 'restore', 'Second title'],
        [3, 'delete', 'Second title'],
        [2, 'edit', 'Second title'],
        [1, 'create', draft.title],
      ])
      expect(history[0]).toEqual({
        ...draft,
        revision: 5,
        action: 'restore',
        at: '2026-01-01T09:30:04.123Z',
        editor: 'unknown',
        restoredFrom: 1,
      })
      expect(history[1]).not.toHaveProperty('restoredFrom')
    })

    it('lists the history of a trashed post, and restores it under the same id', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      await repository.remove(item._id)
      expect((await repository.revisions(item._id, {})).items).toHaveLength(2)
      const back = await repository.restore(item._id)
      expect(back).toMatchObject({
        ...draft,
        _id: item._id,
        revision: 3,
        createdAt: item.createdAt,
      })
      expect(await repository.get(item._id)).toEqual(back)
      expect((await repository.trash({})).items).toEqual([])
      expect((await repository.list({})).items).toEqual([back])
    })

    it('pages the history of a trashed post to its first version, and NotFound for a post that never was, cursor or not', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      for (let index = 0; index < 4; index += 1) {
        await repository.update(item._id, { title: `Title ${index}` })
      }
      await repository.remove(item._id)
      const first = await repository.revisions(item._id, { limit: 4 })
      expect(first.items.map((revision) => revision.revision)).toEqual([6, 5, 4, 3])
      const second = await repository.revisions(item._id, { limit: 4, cursor: first.next })
      expect(second.items.map((revision) => revision.action)).toEqual(['edit', 'create'])
      expect(second.next).toBeUndefined()
      for (const query of [{}, { cursor: first.next }]) {
        await expect(repository.revisions('never-existed', query)).rejects.toEqual(notFound())
      }
      await expect(repository.revisions(item._id, { cursor: 'x' })).rejects.toEqual(
        validationFailed({ cursor: INVALID_CURSOR_MESSAGE }),
      )
    })

    it('answers Conflict for a restore of a live post, and for reverting a trashed one', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      await expect(repository.restore(item._id)).rejects.toEqual(conflict('NotInTrash'))
      await expect(repository.restoreRevision(item._id, 2)).rejects.toEqual(notFound())
      await expect(repository.restoreRevision('never-was', 1)).rejects.toEqual(notFound())
      await repository.remove(item._id)
      await expect(repository.restoreRevision(item._id, 1)).rejects.toEqual(conflict('InTrash'))
      await expect(repository.restoreRevision(item._id, 9)).rejects.toEqual(notFound())
      expect((await repository.revisions(item._id, {})).items).toHaveLength(2)
    })

    it('answers NotFound for a revision numbered beyond what the engines store', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      for (const revision of [MAX_REVISION + 1, 9_999_999_999, 2 ** 53]) {
        await expect(repository.restoreRevision(item._id, revision)).rejects.toEqual(notFound())
      }
    })

    it('refuses a stale edit or delete with the stored post, and changes nothing', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      const current = await repository.update(item._id, { title: 'Newer' }, { ifRevision: [1] })
      await expect(
        repository.update(item._id, { title: 'Lost update' }, { ifRevision: [1] }),
      ).rejects.toEqual(stale(current))
      await expect(repository.remove(item._id, { ifRevision: [1] })).rejects.toEqual(stale(current))
      await expect(repository.remove(item._id, { ifRevision: [] })).rejects.toEqual(stale(current))
      expect(await repository.get(item._id)).toEqual(current)
      expect((await repository.revisions(item._id, {})).items).toHaveLength(2)
      await repository.remove(item._id, { ifRevision: [1, 2] })
      await expect(repository.get(item._id)).rejects.toMatchObject({
        code: 'NotFound',
        trashed: { _id: item._id, revision: 3 },
      })
    })

    it('lets one of two simultaneous edits of the same revision win; the other is stale', async () => {
      const { repository } = await open(clock())
      const item = await repository.create(draft)
      await warmUp(repository)
      const outcomes = await Promise.allSettled(
        ['First editor', 'Second editor'].map((title) =>
          repository.update(item._id, { title }, { ifRevision: [1] }),
        ),
      )
      const won = outcomes.flatMap((outcome) =>
        outcome.status === 'fulfilled' ? [outcome.value] : [],
      )
      const lost = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [outcome.reason] : [],
      )
      expect(won).toHaveLength(1)
      expect(lost).toEqual([stale(won[0] as NewsItem)])
      expect((await repository.revisions(item._id, {})).items).toHaveLength(2)
    })
  })

  describe('idempotent create', () => {
    it('answers a repeat with the same key and draft with the first post, creating nothing', async () => {
      const { repository } = await open(clock())
      const first = await repository.create(draft, { idempotencyKey: 'submit-1' })
      await repository.update(first._id, { title: 'Edited since' })
      const again = await repository.create(draft, { idempotencyKey: 'submit-1' })
      expect(again).toEqual(first)
      expect((await repository.list({})).items).toHaveLength(1)
    })

    it('refuses the same key with another draft as KeyReused', async () => {
      const { repository } = await open(clock())
      await repository.create(draft, { idempotencyKey: 'submit-2' })
      await expect(
        repository.create({ ...draft, body: 'Another body' }, { idempotencyKey: 'submit-2' }),
      ).rejects.toEqual(conflict('KeyReused'))
      expect((await repository.list({})).items).toHaveLength(1)
    })

    it('treats a key older than 24 hours as new, and remembers it again', async () => {
      const day = 24 * 60 * 60 * 1000
      const instants = [START, START + day - 1, START + day, START + day + 1000]
      let reading = 0
      const { repository } = await open(() => new Date(instants[reading++] ?? START + 2 * day))
      const first = await repository.create(draft, { idempotencyKey: 'old-key' })
      // A millisecond short of a day, the key still answers with the first post.
      expect(await repository.create(draft, { idempotencyKey: 'old-key' })).toEqual(first)
      const second = await repository.create(
        { ...draft, title: 'Other' },
        { idempotencyKey: 'old-key' },
      )
      expect(second._id).not.toBe(first._id)
      expect(
        await repository.create({ ...draft, title: 'Other' }, { idempotencyKey: 'old-key' }),
      ).toEqual(second)
      expect((await repository.list({})).items).toHaveLength(2)
    })

    it('makes one post of two simultaneous creates with one key', async () => {
      const { repository } = await open(clock(0))
      await warmUp(repository)
      const [one, two] = await Promise.all([
        repository.create(draft, { idempotencyKey: 'double-click' }),
        repository.create(draft, { idempotencyKey: 'double-click' }),
      ])
      expect(one).toEqual(two)
      expect((await repository.list({})).items).toEqual([one])
    })
  })

  describe('purge', () => {
    it('removes posts trashed longer ago than the trash keeps them, with their histories', async () => {
      const day = 24 * 60 * 60 * 1000
      let now = START
      const { repository } = await open(() => new Date(now))
      const old = await repository.create({ ...draft, title: 'Old' }, { idempotencyKey: 'k' })
      const young = await repository.create({ ...draft, title: 'Young' })
      const live = await repository.create({ ...draft, title: 'Live' })
      await repository.remove(old._id)
      now += 10 * day
      await repository.remove(young._id)
      now += 25 * day
      // The key, older than a day, goes too.
      expect(await repository.purge(30)).toEqual({ posts: 1, keys: 1 })
      await expect(repository.revisions(old._id, {})).rejects.toEqual(notFound())
      await expect(repository.restore(old._id)).rejects.toEqual(notFound())
      expect((await repository.trash({})).items.map((item) => item._id)).toEqual([young._id])
      expect((await repository.get(live._id)).title).toBe('Live')
      const fresh = await repository.create(draft, { idempotencyKey: 'fresh' })
      expect(await repository.purge(30)).toEqual({ posts: 0, keys: 0 })
      expect(await repository.create(draft, { idempotencyKey: 'fresh' })).toEqual(fresh)
    })
  })

  describe('list', () => {
    it('lists newest first', async () => {
      const { repository } = await open(clock())
      const created = await createMany(repository, 5)
      const page = await repository.list({})
      expect(page.items).toEqual([...created].reverse())
      expect(page.next).toBeUndefined()
    })

    it('lists nothing, without a next cursor, when there are no posts', async () => {
      const { repository } = await open()
      expect(await repository.list({})).toEqual({ items: [] })
      expect(await repository.trash({})).toEqual({ items: [] })
    })

    it('pages by cursor through posts that share a creation millisecond, each post once', async () => {
      // Three bursts of posts, each burst in one millisecond.
      const instants = [0, 0, 0, 5, 5, 5, 5, 9, 9, 9].map((ms) => new Date(START + ms))
      let reading = 0
      const { repository } = await open(() => instants[reading++] ?? new Date(START + 100))
      const created = await createMany(repository, instants.length)
      const expected = [...created].sort(newestFirst)

      for (const limit of [1, 2, 3, 4, 10]) {
        const pages = await readAllPages(repository, limit)
        expect(pages.flat()).toEqual(expected)
        expect(pages.length).toBe(Math.ceil(expected.length / limit))
        for (const page of pages) expect(page.length).toBeLessThanOrEqual(limit)
      }
    })

    it('gives no next cursor when the last page is exactly full', async () => {
      const { repository } = await open(clock())
      await createMany(repository, 4)
      const first = await repository.list({ limit: 2 })
      expect(first.next).toBeDefined()
      const second = await repository.list({ limit: 2, cursor: first.next })
      expect(second.items).toHaveLength(2)
      expect(second.next).toBeUndefined()
    })

    it('keeps later pages steady when posts are added or the last one read is removed', async () => {
      const { repository } = await open(clock())
      const created = await createMany(repository, 6)
      const first = await repository.list({ limit: 3 })
      const last = first.items.at(-1)
      if (last === undefined) throw new Error('empty first page')
      await repository.create({ ...draft, title: 'Breaking' })
      await repository.remove(last._id)
      const second = await repository.list({ limit: 3, cursor: first.next })
      expect(second.items).toEqual(created.slice(0, 3).reverse())
    })

    it(`returns ${DEFAULT_PAGE_SIZE} by default and bounds the limit to 1..${MAX_PAGE_SIZE}`, async () => {
      const { repository, store } = await open(clock(0))
      await createMany(repository, MAX_PAGE_SIZE + 2)
      const expectBounded = async (read: (limit: number | undefined) => Promise<unknown[]>) => {
        const sizes = async (limit: number | undefined) => (await read(limit)).length
        expect(await sizes(undefined)).toBe(DEFAULT_PAGE_SIZE)
        expect(await sizes(Number.NaN)).toBe(DEFAULT_PAGE_SIZE)
        expect(await sizes(0)).toBe(1)
        expect(await sizes(-5)).toBe(1)
        expect(await sizes(2.7)).toBe(2)
        expect(await sizes(MAX_PAGE_SIZE)).toBe(MAX_PAGE_SIZE)
        expect(await sizes(MAX_PAGE_SIZE + 1)).toBe(MAX_PAGE_SIZE)
        expect(await sizes(1_000_000)).toBe(MAX_PAGE_SIZE)
      }
      await expectBounded(async (limit) => [...(await repository.list({ limit })).items])
      await trashAll(repository, store)
      await expectBounded(async (limit) => [...(await repository.trash({ limit })).items])
    })

    it('hands out cursors that are URL-safe and valid', async () => {
      const { repository } = await open(clock())
      await createMany(repository, 3)
      const { next } = await repository.list({ limit: 1 })
      expect(next).toMatch(/^[A-Za-z0-9_-]+$/)
      expect(isValidCursor(next ?? '')).toBe(true)
    })

    it.each([
      ['garbage', 'not a cursor!'],
      ['empty', ''],
      ['short base64url', 'abc'],
      ['base64url of plain text', Buffer.from('hello world').toString('base64url')],
      ['an impossible date', encodeCursor({ at: '2026-02-30T00:00:00.000Z', id: 'abc' })],
      [
        'a date without milliseconds',
        Buffer.from('2026-01-01T00:00:00Z abc').toString('base64url'),
      ],
      [
        'an id that cannot be one',
        Buffer.from('2026-01-01T00:00:00.000Z a/b').toString('base64url'),
      ],
      [
        'a look-alike of a real cursor',
        `${encodeCursor({ at: '2026-01-01T00:00:00.000Z', id: 'ab' })}x`,
      ],
      ['too long', 'A'.repeat(10_000)],
      ['the year 0', encodeCursor({ at: '0000-01-01T00:00:00.000Z', id: 'abc' })],
      ['an instant before 1970', encodeCursor({ at: '1969-12-31T23:59:59.999Z', id: 'abc' })],
    ])('rejects a malformed cursor (%s) with ValidationFailed on cursor', async (_, cursor) => {
      const { repository } = await open()
      await repository.create(draft)
      const refusal = validationFailed({ cursor: INVALID_CURSOR_MESSAGE })
      await expect(repository.list({ cursor })).rejects.toEqual(refusal)
      await expect(repository.trash({ cursor })).rejects.toEqual(refusal)
    })
  })
}

/** Opens a few pooled connections, so that simultaneous calls really run at once. */
async function warmUp(repository: JournaledNewsRepository): Promise<void> {
  await Promise.all(Array.from({ length: 4 }, () => repository.list({ limit: 1 })))
}

/** Moves every live post to the trash, a page at a time. */
async function trashAll(repository: JournaledNewsRepository, store: NewsStore): Promise<void> {
  for (;;) {
    const { items } = await store.list({ limit: MAX_PAGE_SIZE })
    if (items.length === 0) return
    for (const item of items) await repository.remove(item._id)
  }
}
