import { addDemoPostsIfEmpty } from '@/adapters/sql/demo-posts'
import { openDatabase } from '@/adapters/sql/database'
import { encodeCursor, INVALID_CURSOR_MESSAGE, isValidCursor } from '@/adapters/sql/news-cursor'
import { NEWS_LIST_INDEX } from '@/adapters/sql/newswire.migrations'
import { SqlNewsRepository, type SqlNewsOptions } from '@/adapters/sql/sql-news.repository'
import {
  DomainErrorException,
  notFound,
  unavailable,
  validationFailed,
} from '@/domain/domain-error'
import type { NewsDraft, NewsItem } from '@/domain/news-item.entity'
import { isNewsId } from '@/domain/news-id'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { checkFields } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { explainNewsPage, type TestStoreKind } from './sql-test-stores'

const draft: NewsDraft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }

const START = Date.UTC(2026, 0, 1, 9, 30, 0, 123)

/** A clock that moves one step per reading; step 0 keeps every post in the same millisecond. */
function clock(stepMs = 1000, start = START): () => Date {
  let reading = 0
  return () => new Date(start + stepMs * reading++)
}

/** Newest first; the id (in byte order) breaks a tie. */
function newestFirst(a: NewsItem, b: NewsItem): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return a._id < b._id ? 1 : a._id > b._id ? -1 : 0
}

const rejection = (error: ReturnType<typeof notFound>) => new DomainErrorException(error)

/**
 * What every SQL engine must do to be NewsWire's NewsRepository. Each engine's test file calls
 * this inside its own describe, with a factory for a fresh, empty database per test.
 */
export function newsRepositoryContract(kind: TestStoreKind): void {
  const cleanups: Array<() => Promise<void>> = []

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function open(options: SqlNewsOptions = {}) {
    const store = await kind.create()
    cleanups.push(() => store.dispose())
    const database = await openDatabase(store.url)
    cleanups.push(() => database.close())
    return { store, database, repository: new SqlNewsRepository(database, options) }
  }

  async function createMany(repository: SqlNewsRepository, count: number): Promise<NewsItem[]> {
    const items: NewsItem[] = []
    for (let index = 0; index < count; index += 1) {
      items.push(await repository.create({ ...draft, title: `Post ${index}` }))
    }
    return items
  }

  async function readAllPages(repository: SqlNewsRepository, limit: number) {
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
    it('creates a post with an opaque URL-safe id and an ISO creation date, and gets it back', async () => {
      const { repository } = await open({ now: clock() })
      const item = await repository.create(draft)
      expect(item).toEqual({ ...draft, _id: item._id, createdAt: '2026-01-01T09:30:00.123Z' })
      expect(isNewsId(item._id)).toBe(true)
      expect(await repository.get(item._id)).toEqual(item)
    })

    it('gives every post its own id', async () => {
      const { repository } = await open({ now: clock(0) })
      const ids = (await createMany(repository, 20)).map((item) => item._id)
      expect(new Set(ids).size).toBe(20)
    })

    it('keeps text exactly, line breaks, quotes and emoji included', async () => {
      const { repository } = await open()
      const text = {
        title: `It's "quoted" 😀 — naïve; DROP TABLE news; --`,
        body: 'First paragraph.\n\nSecond one, with a tab\tand 👩‍👩‍👧 a family.',
        author: 'Zoë Ø’Brien',
      }
      const item = await repository.create(text)
      expect(await repository.get(item._id)).toEqual(item)
      expect(item).toMatchObject(text)
    })

    it('updates only the fields it is given and keeps the id and creation date', async () => {
      const { repository } = await open({ now: clock() })
      const item = await repository.create(draft)
      const changed = await repository.update(item._id, { title: 'Harbour closes again' })
      expect(changed).toEqual({ ...item, title: 'Harbour closes again' })
      expect(await repository.get(item._id)).toEqual(changed)

      const both = await repository.update(item._id, { body: 'Storm ahead.', author: 'Grace' })
      expect(both).toEqual({ ...changed, body: 'Storm ahead.', author: 'Grace' })
    })

    it('changes nothing for an update without fields and returns the post', async () => {
      const { repository } = await open()
      const item = await repository.create(draft)
      expect(await repository.update(item._id, {})).toEqual(item)
    })

    it('leaves other posts alone when it updates or removes one', async () => {
      const { repository } = await open({ now: clock() })
      const [first, second] = await createMany(repository, 2)
      if (first === undefined || second === undefined) throw new Error('no posts')
      await repository.update(first._id, { title: 'Changed' })
      await repository.remove(first._id)
      expect(await repository.get(second._id)).toEqual(second)
    })

    it('removes a post, after which get, update and remove report NotFound', async () => {
      const { repository } = await open()
      const item = await repository.create(draft)
      await repository.remove(item._id)
      await expect(repository.get(item._id)).rejects.toEqual(rejection(notFound()))
      await expect(repository.update(item._id, { title: 'x' })).rejects.toEqual(
        rejection(notFound()),
      )
      await expect(repository.remove(item._id)).rejects.toEqual(rejection(notFound()))
      expect((await repository.list({})).items).toEqual([])
    })

    it.each(['unknown-id', 'not/an id', '', 'x'.repeat(65)])(
      'reports NotFound for get, update and remove of %j',
      async (id) => {
        const { repository } = await open()
        await repository.create(draft)
        await expect(repository.get(id)).rejects.toEqual(rejection(notFound()))
        await expect(repository.update(id, { title: 'x' })).rejects.toEqual(rejection(notFound()))
        await expect(repository.update(id, {})).rejects.toEqual(rejection(notFound()))
        await expect(repository.remove(id)).rejects.toEqual(rejection(notFound()))
      },
    )
  })

  describe('list', () => {
    it('lists newest first', async () => {
      const { repository } = await open({ now: clock() })
      const created = await createMany(repository, 5)
      const page = await repository.list({})
      expect(page.items).toEqual([...created].reverse())
      expect(page.next).toBeUndefined()
    })

    it('lists nothing, without a next cursor, when there are no posts', async () => {
      const { repository } = await open()
      expect(await repository.list({})).toEqual({ items: [] })
    })

    it('pages by cursor through posts that share a creation millisecond, each post once', async () => {
      const { database } = await open()
      // Three bursts of posts, each burst in one millisecond.
      const instants = [0, 0, 0, 5, 5, 5, 5, 9, 9, 9].map((ms) => new Date(START + ms))
      let reading = 0
      const repository = new SqlNewsRepository(database, {
        now: () => instants[reading++] ?? new Date(START + 100),
      })
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
      const { repository } = await open({ now: clock() })
      await createMany(repository, 4)
      const first = await repository.list({ limit: 2 })
      expect(first.next).toBeDefined()
      const second = await repository.list({ limit: 2, cursor: first.next })
      expect(second.items).toHaveLength(2)
      expect(second.next).toBeUndefined()
    })

    it('keeps later pages steady when posts are added or the last one read is removed', async () => {
      const { repository } = await open({ now: clock() })
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
      const { repository } = await open({ now: clock(0) })
      await createMany(repository, MAX_PAGE_SIZE + 2)
      const sizes = async (limit: number | undefined) =>
        (await repository.list({ limit })).items.length

      expect(await sizes(undefined)).toBe(DEFAULT_PAGE_SIZE)
      expect(await sizes(Number.NaN)).toBe(DEFAULT_PAGE_SIZE)
      expect(await sizes(0)).toBe(1)
      expect(await sizes(-5)).toBe(1)
      expect(await sizes(2.7)).toBe(2)
      expect(await sizes(MAX_PAGE_SIZE)).toBe(MAX_PAGE_SIZE)
      expect(await sizes(MAX_PAGE_SIZE + 1)).toBe(MAX_PAGE_SIZE)
      expect(await sizes(1_000_000)).toBe(MAX_PAGE_SIZE)
    })

    it('hands out cursors that are URL-safe and valid', async () => {
      const { repository } = await open({ now: clock() })
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
      ['an impossible date', encodeCursor({ createdAt: '2026-02-30T00:00:00.000Z', id: 'abc' })],
      [
        'a date without milliseconds',
        Buffer.from('2026-01-01T00:00:00Z abc').toString('base64url'),
      ],
      [
        'an id that cannot be one',
        Buffer.from('2026-01-01T00:00:00.000Z a/b').toString('base64url'),
      ],
      ['too long', 'A'.repeat(10_000)],
    ])('rejects a malformed cursor (%s) with ValidationFailed on cursor', async (_, cursor) => {
      const { repository } = await open()
      await repository.create(draft)
      expect(isValidCursor(cursor)).toBe(false)
      await expect(repository.list({ cursor })).rejects.toEqual(
        rejection(validationFailed({ cursor: INVALID_CURSOR_MESSAGE })),
      )
    })

    it('reads each page through the composite index, without sorting', async () => {
      const { database, repository } = await open({ now: clock() })
      await createMany(repository, 30)
      const first = await explainNewsPage(database)
      const after = await explainNewsPage(database, {
        createdAt: new Date(START + 10_000).toISOString(),
        id: 'M',
      })
      for (const plan of [first, after]) {
        expect(plan).toContain(NEWS_LIST_INDEX)
        if (database.engine === 'sqlite') {
          expect(plan).not.toMatch(/TEMP B-TREE/)
        } else {
          expect(plan).toMatch(/Index Scan/)
          expect(plan).not.toMatch(/Sort|Seq Scan/)
        }
      }
      // The cursor is a range condition on the index, not a filter over every row.
      expect(after).toMatch(database.engine === 'sqlite' ? /SEARCH news/ : /Index Cond/)
    })
  })

  describe('the database', () => {
    it.skipIf(!kind.persistent)(
      'runs its migrations once: opening the same database again keeps its posts',
      async () => {
        const { store, repository } = await open()
        const item = await repository.create(draft)
        const again = await openDatabase(store.url)
        cleanups.push(() => again.close())
        expect(await new SqlNewsRepository(again).get(item._id)).toEqual(item)
        const third = await openDatabase(store.url)
        await third.close()
      },
    )

    it('answers ping while open, and not once closed', async () => {
      const { database } = await open()
      expect(await database.ping()).toBe(true)
      await database.close()
      await database.close()
      expect(await database.ping()).toBe(false)
    })

    it('reports Unavailable, with no SQL detail, when the database fails', async () => {
      const failures: unknown[] = []
      const { database, repository } = await open({ onError: (error) => failures.push(error) })
      const item = await repository.create(draft)
      await database.close()
      const unavailableError = rejection(unavailable())
      await expect(repository.get(item._id)).rejects.toEqual(unavailableError)
      await expect(repository.list({})).rejects.toEqual(unavailableError)
      await expect(repository.create(draft)).rejects.toEqual(unavailableError)
      await expect(repository.update(item._id, { title: 'x' })).rejects.toEqual(unavailableError)
      await expect(repository.remove(item._id)).rejects.toEqual(unavailableError)
      expect(failures).toHaveLength(5)
    })

    it('refuses an id the domain could never issue without asking the database', async () => {
      const { database, repository } = await open()
      await database.close()
      await expect(repository.get('../../etc')).rejects.toEqual(rejection(notFound()))
    })
  })

  describe('demo posts', () => {
    it('adds the demo posts to an empty database, each within the domain rules', async () => {
      const { repository } = await open()
      const added = await addDemoPostsIfEmpty(repository, true)
      const { items } = await repository.list({ limit: MAX_PAGE_SIZE })
      expect(added).toBeGreaterThanOrEqual(6)
      expect(items).toHaveLength(added)
      for (const item of items) {
        expect(checkFields(NEWS_RULES, item)).toEqual({})
        expect(item.title).toBe(item.title.trim())
        expect(item.body).toBe(item.body.trim())
        expect(item.author).toBe(item.author.trim())
      }
      expect(items.some((item) => item.body.includes('\n'))).toBe(true)
      expect(new Set(items.map((item) => item.author)).size).toBe(items.length)
    })

    it('adds nothing when demo posts are turned off', async () => {
      const { repository } = await open()
      expect(await addDemoPostsIfEmpty(repository, false)).toBe(0)
      expect((await repository.list({})).items).toEqual([])
    })

    it('adds nothing to a database that already has posts, so a restart adds none', async () => {
      const { repository } = await open()
      const item = await repository.create(draft)
      expect(await addDemoPostsIfEmpty(repository, true)).toBe(0)
      expect((await repository.list({})).items).toEqual([item])
    })
  })
}
