import { OPERATOR } from '@/domain/editor'
import { notFound, validationFailed } from '@/domain/domain-error'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { LoggedNewsStore } from '@/application/ports/change-log.port'
import {
  MAX_REVISION,
  type IdempotencyRecord,
  type StoredNews,
} from '@/domain/rules/news-history.rules'
import {
  DEFAULT_HISTORY_PAGE_SIZE,
  MAX_HISTORY_PAGE_SIZE,
} from '@/domain/ports/news-repository.port'
import {
  encodeCursor,
  encodeRevisionCursor,
  INVALID_CURSOR_MESSAGE,
} from '@/adapters/shared/keyset-cursor'
import { storedNews } from '../support/news-item'
import type { NewsStoreKind } from '../support/news-stores'
import { runCleanups } from '../support/test-databases'

const T0 = Date.UTC(2026, 0, 1, 9, 30, 0, 123)
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString()

function revisionOf(item: StoredNews, action: NewsRevision['action'] = 'create'): NewsRevision {
  return {
    revision: item.revision,
    title: item.title,
    body: item.body,
    author: item.author,
    action,
    at: item.updatedAt,
    editor: OPERATOR,
  }
}

/**
 * Resolves once `count` callers have arrived, or after `timeoutMs` for those that wait alone:
 * on an engine that runs transactions one at a time, the second never arrives while the first
 * waits.
 */
function meetingPoint(count: number, timeoutMs: number): () => Promise<void> {
  let arrived = 0
  let open = (): void => undefined
  const opened = new Promise<void>((resolve) => (open = resolve))
  return () => {
    arrived += 1
    if (arrived >= count) open()
    return Promise.race([opened, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))])
  }
}

/**
 * What every NewsStore (memory, SQLite, PostgreSQL) must do: the primitives the journal builds
 * on, and above all transactions that are all or nothing.
 */
export function newsStoreContract(kind: NewsStoreKind): void {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  async function open(): Promise<LoggedNewsStore> {
    return (await kind.open(cleanups)).store
  }

  /** Writes posts with their first revision, in one transaction. */
  async function put(store: LoggedNewsStore, ...items: StoredNews[]): Promise<void> {
    await store.transaction(async (tx) => {
      for (const item of items) {
        await tx.insert(item)
        await tx.appendRevision(item._id, revisionOf(item))
      }
    })
  }

  describe('transactions', () => {
    it('commits a post and its revision together, and answers what the work returned', async () => {
      const store = await open()
      const item = storedNews('a1')
      const answer = await store.transaction(async (tx) => {
        await tx.insert(item)
        await tx.appendRevision(item._id, revisionOf(item))
        return 'done'
      })
      expect(answer).toBe('done')
      expect(await store.find('a1')).toEqual(item)
      expect((await store.revisions('a1', {})).items).toEqual([revisionOf(item)])
    })

    it('keeps nothing of a transaction whose work rejects, and passes a domain error on unchanged', async () => {
      const store = await open()
      const refusal = notFound()
      await expect(
        store.transaction(async (tx) => {
          const item = storedNews('b1')
          await tx.insert(item)
          await tx.appendRevision(item._id, revisionOf(item))
          await tx.saveKey({ key: 'k', fingerprint: 'f', newsId: 'b1', createdAt: at(0) })
          throw refusal
        }),
      ).rejects.toBe(refusal)
      expect(await store.find('b1')).toBeUndefined()
      expect((await store.revisions('b1', {})).items).toEqual([])
      expect(await store.transaction((tx) => tx.findKey('k'))).toBeUndefined()
    })

    it('undoes the earlier writes of a transaction when a later one fails', async () => {
      const store = await open()
      const item = storedNews('c1')
      await put(store, item)
      const edited = { ...item, title: 'Edited', revision: 2, updatedAt: at(5) }
      // Revision 1 exists: the second append breaks the history's key.
      await expect(
        store.transaction(async (tx) => {
          await tx.update(edited)
          await tx.appendRevision(item._id, revisionOf(edited, 'edit'))
          await tx.appendRevision(item._id, { ...revisionOf(edited, 'edit'), revision: 1 })
        }),
      ).rejects.toBeTruthy()
      expect(await store.find('c1')).toEqual(item)
      expect((await store.revisions('c1', {})).items).toEqual([revisionOf(item)])
    })

    it('sees its own writes before it commits', async () => {
      const store = await open()
      await store.transaction(async (tx) => {
        const item = storedNews('d1')
        await tx.insert(item)
        await tx.appendRevision(item._id, revisionOf(item))
        expect(await tx.find('d1')).toEqual(item)
        expect(await tx.revision('d1', 1)).toEqual(revisionOf(item))
        await tx.saveKey({ key: 'key-d1', fingerprint: 'f', newsId: 'd1', createdAt: at(0) })
        expect(await tx.findKey('key-d1')).toMatchObject({ newsId: 'd1' })
      })
    })

    it('runs concurrent read-then-write transactions one after another, losing no write', async () => {
      const store = await open()
      await put(store, storedNews('e1'))
      // Each reads the post and writes the next revision: without isolation two would read the
      // same number, and one revision would be lost or clash.
      await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          store.transaction(async (tx) => {
            const stored = await tx.find('e1')
            if (stored === undefined) throw new Error('lost the post')
            const next = {
              ...stored,
              title: `Edit ${index}`,
              revision: stored.revision + 1,
              updatedAt: at(index + 1),
            }
            await tx.update(next)
            await tx.appendRevision('e1', revisionOf(next, 'edit'))
          }),
        ),
      )
      const history = (await store.revisions('e1', {})).items
      expect(history.map((revision) => revision.revision)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1])
      expect((await store.find('e1'))?.revision).toBe(9)
    })

    it('locks the post a transaction reads: a second writer waits, then reads the new revision', async () => {
      const store = await open()
      await put(store, storedNews('l1'))
      const meet = meetingPoint(2, 300)
      const seen: number[] = []
      const edit = (title: string) =>
        store.transaction(async (tx) => {
          const stored = await tx.find('l1')
          if (stored === undefined) throw new Error('lost the post')
          seen.push(stored.revision)
          // Where both would have read the same revision, had the first not locked it.
          await meet()
          const next = { ...stored, title, revision: stored.revision + 1, updatedAt: at(1) }
          await tx.update(next)
          await tx.appendRevision('l1', revisionOf(next, 'edit'))
        })
      await Promise.all([edit('One'), edit('Two')])
      expect(seen.sort()).toEqual([1, 2])
      expect((await store.revisions('l1', {})).items.map((revision) => revision.revision)).toEqual([
        3, 2, 1,
      ])
    })

    it('lets one of two simultaneous transactions claim a key; the other, run again, finds it', async () => {
      const store = await open()
      const meet = meetingPoint(2, 300)
      const claim = (newsId: string) =>
        store.transaction(async (tx) => {
          const found = await tx.findKey('race')
          await meet()
          if (found !== undefined) return found.newsId
          await tx.saveKey({ key: 'race', fingerprint: 'f', newsId, createdAt: at(0) })
          return newsId
        })
      const [first, second] = await Promise.all([claim('n1'), claim('n2')])
      expect(first).toBe(second)
      expect(await store.transaction((tx) => tx.findKey('race'))).toMatchObject({ newsId: first })
    })

    it('hands out fresh URL-safe ids', async () => {
      const store = await open()
      const ids = await store.transaction(async (tx) =>
        Array.from({ length: 20 }, () => tx.newId()),
      )
      expect(new Set(ids).size).toBe(20)
      for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
    })
  })

  describe('reads', () => {
    it('finds live and trashed posts, and nothing for unknown or malformed ids', async () => {
      const store = await open()
      const live = storedNews('f1')
      const gone = storedNews('f2', { deletedAt: at(3), revision: 2, updatedAt: at(3) })
      await put(store, live, gone)
      expect(await store.find('f1')).toEqual(live)
      expect(await store.find('f2')).toEqual(gone)
      for (const id of ['f3', '', 'not/an id', 'x'.repeat(65)]) {
        expect(await store.find(id)).toBeUndefined()
        expect((await store.revisions(id, {})).items).toEqual([])
      }
    })

    it('lists live posts only, and the trash newest deletion first', async () => {
      const store = await open()
      await put(
        store,
        storedNews('g1', { createdAt: at(1) }),
        storedNews('g2', { createdAt: at(2), deletedAt: at(10) }),
        storedNews('g3', { createdAt: at(3), deletedAt: at(20) }),
        storedNews('g4', { createdAt: at(4) }),
      )
      expect((await store.list({})).items.map((item) => item._id)).toEqual(['g4', 'g1'])
      const trash = await store.trash({})
      expect(trash.items.map((item) => [item._id, item.deletedAt])).toEqual([
        ['g3', at(20)],
        ['g2', at(10)],
      ])
      expect(trash.next).toBeUndefined()
      // Live items carry no trash bookkeeping.
      expect((await store.list({})).items[0]).not.toHaveProperty('deletedAt')
    })

    it('pages the trash by cursor through deletions in one millisecond, each post once', async () => {
      const store = await open()
      const ids = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7']
      await put(
        store,
        ...ids.map((id, index) => storedNews(id, { deletedAt: at(index < 4 ? 1 : 2) })),
        storedNews('h8'),
      )
      const seen: string[] = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = await store.trash({ limit: 2, cursor })
        expect(page.items.length).toBeLessThanOrEqual(2)
        seen.push(...page.items.map((item) => item._id))
        cursor = page.next
        pages += 1
      } while (cursor !== undefined && pages < 20)
      expect(seen).toEqual(['h7', 'h6', 'h5', 'h4', 'h3', 'h2', 'h1'])
      expect(pages).toBe(4)
    })

    it.each([
      ['garbage', 'not a cursor!'],
      ['an impossible date', encodeCursor({ at: '2026-02-30T00:00:00.000Z', id: 'abc' })],
      ['too long', 'A'.repeat(10_000)],
      ['the year 0', encodeCursor({ at: '0000-01-01T00:00:00.000Z', id: 'abc' })],
      ['an instant before 1970', encodeCursor({ at: '1969-12-31T23:59:59.999Z', id: 'abc' })],
    ])('refuses a malformed trash cursor (%s) with ValidationFailed', async (_, cursor) => {
      const store = await open()
      await expect(store.trash({ cursor })).rejects.toEqual(
        validationFailed({ cursor: INVALID_CURSOR_MESSAGE }),
      )
    })

    it('keeps a revision as written, its restoredFrom included, and lists history newest first', async () => {
      const store = await open()
      const item = storedNews('i1')
      await put(store, item)
      const restored: NewsRevision = {
        ...revisionOf(item, 'restore'),
        revision: 2,
        restoredFrom: 1,
      }
      await store.transaction((tx) => tx.appendRevision('i1', restored))
      expect((await store.revisions('i1', {})).items).toEqual([restored, revisionOf(item)])
      expect(await store.transaction((tx) => tx.revision('i1', 2))).toEqual(restored)
      expect(await store.transaction((tx) => tx.revision('i1', 3))).toBeUndefined()
    })

    it('finds no revision numbered beyond what the engines store, without asking them', async () => {
      const store = await open()
      await put(store, storedNews('i2'))
      for (const revision of [MAX_REVISION + 1, 2 ** 53, 0, -1, 1.5, Number.NaN]) {
        expect(await store.transaction((tx) => tx.revision('i2', revision))).toBeUndefined()
      }
    })

    it('pages from cursors at the first and last instants the engines store', async () => {
      const store = await open()
      await put(store, storedNews('j1', { deletedAt: at(1) }), storedNews('j2'))
      const latest = encodeCursor({ at: '9999-12-31T23:59:59.999Z', id: 'zzz' })
      const earliest = encodeCursor({ at: '1970-01-01T00:00:00.000Z', id: 'a' })
      expect((await store.list({ cursor: latest })).items.map((item) => item._id)).toEqual(['j2'])
      expect((await store.trash({ cursor: latest })).items.map((item) => item._id)).toEqual(['j1'])
      expect((await store.list({ cursor: earliest })).items).toEqual([])
      expect((await store.trash({ cursor: earliest })).items).toEqual([])
    })

    it('pages a history by revision number, newest first, each version once, and only that post’s', async () => {
      const store = await open()
      const item = storedNews('k1')
      await put(store, item, storedNews('k2'))
      await store.transaction(async (tx) => {
        for (let revision = 2; revision <= 7; revision += 1) {
          await tx.appendRevision('k1', {
            ...revisionOf(item, 'edit'),
            revision,
            title: `T${revision}`,
          })
        }
      })
      const seen: number[] = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = await store.revisions('k1', { limit: 3, cursor })
        expect(page.items.length).toBeLessThanOrEqual(3)
        seen.push(...page.items.map((revision) => revision.revision))
        cursor = page.next
        pages += 1
      } while (cursor !== undefined && pages < 20)
      expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1])
      // Seven in threes: the third page holds the last one, and says so.
      expect(pages).toBe(3)
      const whole = await store.revisions('k1', { limit: 7 })
      expect(whole.items).toHaveLength(7)
      expect(whole.next).toBeUndefined()
    })

    it('bounds a history page: the default without a limit, the maximum above it', async () => {
      const store = await open()
      const item = storedNews('m1')
      await put(store, item)
      await store.transaction(async (tx) => {
        for (let revision = 2; revision <= MAX_HISTORY_PAGE_SIZE + 5; revision += 1) {
          await tx.appendRevision('m1', { ...revisionOf(item, 'edit'), revision })
        }
      })
      expect((await store.revisions('m1', {})).items).toHaveLength(DEFAULT_HISTORY_PAGE_SIZE)
      const largest = await store.revisions('m1', { limit: 10_000 })
      expect(largest.items).toHaveLength(MAX_HISTORY_PAGE_SIZE)
      expect(largest.next).toBeDefined()
      expect((await store.revisions('m1', { limit: 0 })).items).toHaveLength(1)
    })

    it.each([
      ['garbage', 'not a cursor!'],
      ['a list cursor', encodeCursor({ at: at(0), id: 'abc' })],
      ['revision zero', encodeRevisionCursor(0)],
      ['a revision beyond what the engines store', encodeRevisionCursor(MAX_REVISION + 1)],
      ['a revision beyond a safe integer', encodeRevisionCursor(2 ** 60)],
      ['too long', 'A'.repeat(10_000)],
    ])('refuses a malformed history cursor (%s) with ValidationFailed', async (_, cursor) => {
      const store = await open()
      await put(store, storedNews('n1'))
      await expect(store.revisions('n1', { cursor })).rejects.toEqual(
        validationFailed({ cursor: INVALID_CURSOR_MESSAGE }),
      )
    })

    it('names the posts with a revision made at or after an instant', async () => {
      const store = await open()
      await put(
        store,
        storedNews('j1', { updatedAt: at(1) }),
        storedNews('j2', { updatedAt: at(5) }),
        storedNews('j3', { updatedAt: at(9) }),
      )
      expect([...(await store.changedSince(at(5)))].sort()).toEqual(['j2', 'j3'])
      expect(await store.changedSince(at(10))).toEqual([])
    })
  })

  describe('idempotency keys', () => {
    it('remembers a key, and replaces its record only once it has expired', async () => {
      const store = await open()
      const day = 24 * 60 * 60
      const first: IdempotencyRecord = {
        key: 'k-1',
        fingerprint: 'a',
        newsId: 'x1',
        createdAt: at(0),
      }
      const early: IdempotencyRecord = { ...first, fingerprint: 'b', createdAt: at(day - 1) }
      const later: IdempotencyRecord = {
        ...first,
        fingerprint: 'c',
        newsId: 'x2',
        createdAt: at(day),
      }
      await store.transaction((tx) => tx.saveKey(first))
      expect(await store.transaction((tx) => tx.findKey('k-1'))).toEqual(first)
      await expect(store.transaction((tx) => tx.saveKey(early))).rejects.toBeTruthy()
      expect(await store.transaction((tx) => tx.findKey('k-1'))).toEqual(first)
      await store.transaction((tx) => tx.saveKey(later))
      expect(await store.transaction((tx) => tx.findKey('k-1'))).toEqual(later)
      expect(await store.transaction((tx) => tx.findKey('k-2'))).toBeUndefined()
    })
  })

  describe('purge', () => {
    it('deletes posts trashed before the cutoff with their histories, and keys made before the other', async () => {
      const store = await open()
      await put(
        store,
        storedNews('p1', { deletedAt: at(10) }),
        storedNews('p2', { deletedAt: at(20) }),
        storedNews('p3', { deletedAt: at(30) }),
        storedNews('p4'),
      )
      await store.transaction(async (tx) => {
        await tx.saveKey({ key: 'old', fingerprint: 'f', newsId: 'p4', createdAt: at(1) })
        await tx.saveKey({ key: 'young', fingerprint: 'f', newsId: 'p4', createdAt: at(2) })
      })
      const report = await store.purge({
        trashedBefore: at(20),
        keysBefore: at(2),
        changesBefore: at(0),
      })
      expect(report).toEqual({ posts: 1, keys: 1 })
      expect(await store.find('p1')).toBeUndefined()
      expect((await store.revisions('p1', {})).items).toEqual([])
      // Exactly at the cutoff is not before it.
      expect(await store.find('p2')).toBeDefined()
      expect(await store.find('p3')).toBeDefined()
      expect(await store.find('p4')).toBeDefined()
      expect((await store.revisions('p2', {})).items).toHaveLength(1)
      expect(await store.transaction((tx) => tx.findKey('old'))).toBeUndefined()
      expect(await store.transaction((tx) => tx.findKey('young'))).toBeDefined()
      expect(
        await store.purge({ trashedBefore: at(20), keysBefore: at(2), changesBefore: at(0) }),
      ).toEqual({
        posts: 0,
        keys: 0,
      })
    })
  })

  describe('the change signal', () => {
    it('raises the version with each committed write, and the purge', async () => {
      const store = await open()
      const start = await store.version()
      expect(Number.isSafeInteger(start)).toBe(true)
      await put(store, storedNews('p1'))
      const created = await store.version()
      expect(created).toBeGreaterThan(start)
      await store.transaction((tx) =>
        tx.update({ ...storedNews('p1'), title: 'Edited', revision: 2 }),
      )
      const edited = await store.version()
      expect(edited).toBeGreaterThan(created)
      await store.transaction((tx) =>
        tx.saveKey({ key: 'k', fingerprint: 'f', newsId: 'p1', createdAt: at(1) }),
      )
      const keyed = await store.version()
      expect(keyed).toBeGreaterThan(edited)
      await store.purge({ trashedBefore: at(0), keysBefore: at(0), changesBefore: at(0) })
      expect(await store.version()).toBeGreaterThan(keyed)
    })

    it('keeps the version of a transaction that only read, or that rolled back', async () => {
      const store = await open()
      await put(store, storedNews('p1'))
      const before = await store.version()
      expect(await store.transaction((tx) => tx.find('p1'))).toMatchObject({ _id: 'p1' })
      expect(await store.transaction((tx) => tx.findKey('none'))).toBeUndefined()
      await expect(
        store.transaction(async (tx) => {
          await tx.insert(storedNews('p2'))
          throw notFound()
        }),
      ).rejects.toEqual(notFound())
      expect(await store.version()).toBe(before)
    })
  })
  describe('the change log', () => {
    /** Appends one revision of `id` in a transaction of its own, with `fields` over the post's. */
    async function revise(
      store: LoggedNewsStore,
      id: string,
      action: NewsRevision['action'],
      fields: Partial<NewsRevision> = {},
    ): Promise<void> {
      await store.transaction(async (tx) => {
        const stored = await tx.find(id)
        if (stored === undefined) throw new Error(`no post ${id}`)
        const next = { ...stored, revision: stored.revision + 1 }
        await tx.update(next)
        await tx.appendRevision(id, { ...revisionOf(next, action), ...fields })
      })
    }

    it('logs each change with its kind and the revision it made, numbered by the version it raised', async () => {
      const store = await open()
      const start = await store.version()
      const steps: [string, () => Promise<void>][] = [
        ['created', () => put(store, storedNews('q1', { updatedAt: at(1) }))],
        ['edited', () => revise(store, 'q1', 'edit', { at: at(2) })],
        ['deleted', () => revise(store, 'q1', 'delete', { at: at(3) })],
        ['restored', () => revise(store, 'q1', 'restore', { at: at(4) })],
        // A version brought back from the history is an edit to a reader.
        ['edited', () => revise(store, 'q1', 'restore', { at: at(5), restoredFrom: 1 })],
      ]
      const versions: number[] = []
      for (const [, step] of steps) {
        await step()
        versions.push(await store.version())
      }
      expect(await store.changesSince(start, 100)).toEqual(
        steps.map(([kind], index) => ({
          seq: versions[index],
          id: 'q1',
          kind,
          revision: index + 1,
          at: at(index + 1),
        })),
      )
      expect(versions).toEqual([1, 2, 3, 4, 5].map((step) => start + step))
    })

    it('numbers the changes of one transaction from V-n+1 to V, in the order they were appended', async () => {
      const store = await open()
      await put(store, storedNews('r0'))
      const before = await store.version()
      await put(store, storedNews('r1'), storedNews('r2'), storedNews('r3'))
      const version = await store.version()
      expect(version).toBe(before + 3)
      const changes = await store.changesSince(before, 100)
      expect(changes.map((change) => [change.seq, change.id])).toEqual([
        [version - 2, 'r1'],
        [version - 1, 'r2'],
        [version, 'r3'],
      ])
    })

    it('logs nothing of a transaction that rolled back, nor of one that appended no revision', async () => {
      const store = await open()
      await put(store, storedNews('s1'))
      const before = await store.version()
      await expect(
        store.transaction(async (tx) => {
          const item = storedNews('s2')
          await tx.insert(item)
          await tx.appendRevision(item._id, revisionOf(item))
          throw notFound()
        }),
      ).rejects.toEqual(notFound())
      expect(await store.version()).toBe(before)
      expect(await store.changesSince(before, 100)).toEqual([])
      // A key alone moves the version on, but there is no change to tell.
      await store.transaction((tx) =>
        tx.saveKey({ key: 'k', fingerprint: 'f', newsId: 's1', createdAt: at(1) }),
      )
      expect(await store.version()).toBe(before + 1)
      expect(await store.changesSince(before - 1, 100)).toEqual([
        expect.objectContaining({ seq: before, id: 's1', kind: 'created' }),
      ])
    })

    it('reads the log after a seq, oldest first, at most `limit` changes', async () => {
      const store = await open()
      const start = await store.version()
      for (const id of ['t1', 't2', 't3', 't4']) await put(store, storedNews(id))
      const ids = async (seq: number, limit: number) =>
        (await store.changesSince(seq, limit)).map((change) => change.id)
      expect(await ids(start, 2)).toEqual(['t1', 't2'])
      expect(await ids(start + 2, 10)).toEqual(['t3', 't4'])
      expect(await ids(start + 4, 10)).toEqual([])
      expect(await ids(start, 0)).toEqual([])
      expect(await store.changeLogBounds()).toEqual({
        version: start + 4,
        purgedThrough: expect.any(Number),
      })
    })

    it('purges the changes made before the cutoff, and every change numbered below them', async () => {
      const store = await open()
      const start = await store.version()
      const { purgedThrough: floor } = await store.changeLogBounds()
      expect(floor).toBeLessThanOrEqual(start)
      // The second change carries an older time than the first, as a server whose clock is
      // behind would write it: the log keeps no hole below what it still holds.
      await put(store, storedNews('u1', { updatedAt: at(5) }))
      await put(store, storedNews('u2', { updatedAt: at(1) }))
      await put(store, storedNews('u3', { updatedAt: at(9) }))
      await store.purge({ trashedBefore: at(0), keysBefore: at(0), changesBefore: at(2) })
      expect((await store.changesSince(0, 100)).map((change) => change.id)).toEqual(['u3'])
      const bounds = await store.changeLogBounds()
      // The purge raised the version, and logged nothing.
      expect(bounds).toEqual({ version: start + 4, purgedThrough: start + 2 })
      // Nothing older is left: a later purge leaves the floor where it is.
      await store.purge({ trashedBefore: at(0), keysBefore: at(0), changesBefore: at(2) })
      expect((await store.changeLogBounds()).purgedThrough).toBe(start + 2)
      await store.purge({ trashedBefore: at(0), keysBefore: at(0), changesBefore: at(10) })
      expect(await store.changesSince(0, 100)).toEqual([])
      expect((await store.changeLogBounds()).purgedThrough).toBe(start + 3)
    })

    it('hands out seqs in commit order to concurrent writers: a reader following the log misses none', async () => {
      const store = await open()
      const ids = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6']
      await put(store, ...ids.map((id) => storedNews(id)))
      const start = await store.version()
      const seen: number[] = []
      let cursor = start
      let writing = true
      // As the live stream's watcher does: read on from the last seq seen.
      const follow = async () => {
        for (const change of await store.changesSince(cursor, 1000)) {
          seen.push(change.seq)
          cursor = change.seq
        }
      }
      const reader = (async () => {
        while (writing) {
          await follow()
          await new Promise((resolve) => setTimeout(resolve, 1))
        }
        await follow()
      })()
      const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 8))
      await Promise.all(
        ids.map(async (id) => {
          for (let edit = 0; edit < 5; edit += 1) {
            await store.transaction(async (tx) => {
              const stored = await tx.find(id)
              if (stored === undefined) throw new Error('lost the post')
              const next = { ...stored, title: `Edit ${edit}`, revision: stored.revision + 1 }
              await tx.update(next)
              await tx.appendRevision(id, revisionOf(next, 'edit'))
              // Transactions that began in one order commit in another.
              await pause()
            })
          }
        }),
      )
      writing = false
      await reader
      const logged = (await store.changesSince(start, 1000)).map((change) => change.seq)
      expect(logged).toEqual(Array.from({ length: 30 }, (_, index) => start + index + 1))
      expect(seen).toEqual(logged)
    })
  })
}
