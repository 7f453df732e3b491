import { conflict, notFound, stale } from '@/domain/domain-error'
import type { NewsRevision } from '@/domain/news-revision.entity'
import {
  assertRestorable,
  assertWritable,
  created,
  DEFAULT_TRASH_DAYS,
  edited,
  fingerprintOf,
  firstVersion,
  IDEMPOTENCY_KEY_TTL_MS,
  isIdempotencyKey,
  isKeyLive,
  liveItem,
  purgeCutoffs,
  reverted,
  trashed,
  trashedItem,
  untrashed,
  versionAt,
  type StoredNews,
} from '@/domain/rules/news-history.rules'

const draft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }
const EDITOR = '3f9a2c0d1e'
const instant = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes))
/** A change made at the given minute by EDITOR. */
const t = (minutes: number) => ({ now: instant(minutes), editor: EDITOR })
const iso = (minutes: number) => instant(minutes).toISOString()

describe('revision numbering', () => {
  it('makes a new post revision 1, live, recorded as a create at its creation instant', () => {
    const { item, revision } = created('id-1', draft, t(0))
    expect(item).toEqual({
      ...draft,
      _id: 'id-1',
      createdAt: iso(0),
      updatedAt: iso(0),
      revision: 1,
      deletedAt: null,
    })
    expect(revision).toEqual({
      ...draft,
      revision: 1,
      action: 'create',
      at: iso(0),
      editor: EDITOR,
    })
  })

  it('numbers each following change one higher, dating it and keeping the creation date', () => {
    const first = created('id-1', draft, t(0)).item
    const second = edited(first, { title: 'Tide turns' }, t(1))
    expect(second?.item).toMatchObject({
      title: 'Tide turns',
      body: draft.body,
      revision: 2,
      createdAt: iso(0),
      updatedAt: iso(1),
    })
    expect(second?.revision).toEqual({
      ...draft,
      title: 'Tide turns',
      revision: 2,
      action: 'edit',
      at: iso(1),
      editor: EDITOR,
    })
  })

  it('records nothing for an edit that changes no field, or gives none', () => {
    const first = created('id-1', draft, t(0)).item
    expect(edited(first, {}, t(1))).toBeUndefined()
    expect(edited(first, { title: draft.title, author: draft.author }, t(1))).toBeUndefined()
    expect(edited(first, { title: undefined }, t(1))).toBeUndefined()
  })
})

describe('trash and restore', () => {
  it('moves a post to the trash as a delete revision, keeping its fields', () => {
    const first = created('id-1', draft, t(0)).item
    const { item, revision } = trashed(first, t(5))
    expect(item).toMatchObject({ ...draft, revision: 2, deletedAt: iso(5), updatedAt: iso(5) })
    expect(revision).toMatchObject({ ...draft, revision: 2, action: 'delete', at: iso(5) })
  })

  it('brings a trashed post back as a restore revision, live again', () => {
    const gone = trashed(created('id-1', draft, t(0)).item, t(5)).item
    const { item, revision } = untrashed(gone, t(6))
    expect(item).toMatchObject({ ...draft, revision: 3, deletedAt: null, updatedAt: iso(6) })
    expect(revision).toEqual({
      ...draft,
      revision: 3,
      action: 'restore',
      at: iso(6),
      editor: EDITOR,
    })
  })

  it('reverts to an old version as a new revision that names the version it restored', () => {
    const first = created('id-1', draft, t(0))
    const second = edited(first.item, { title: 'Vandalised', body: 'x' }, t(1))
    if (second === undefined) throw new Error('no edit')
    const { item, revision } = reverted(second.item, first.revision, t(2))
    expect(item).toMatchObject({ ...draft, revision: 3, deletedAt: null })
    expect(revision).toEqual({
      ...draft,
      revision: 3,
      action: 'restore',
      at: iso(2),
      editor: EDITOR,
      restoredFrom: 1,
    })
  })

  it('shows a live post without trash bookkeeping, and a trashed one with its deletion date', () => {
    const gone = trashed(created('id-1', draft, t(0)).item, t(5)).item
    expect(liveItem(gone)).not.toHaveProperty('deletedAt')
    if (gone.deletedAt === null) throw new Error('not trashed')
    expect(trashedItem({ ...gone, deletedAt: gone.deletedAt })).toMatchObject({ deletedAt: iso(5) })
  })
})

describe('write conditions', () => {
  const live: StoredNews = { ...created('id-1', draft, t(0)).item, revision: 4 }

  it('lets a write through without a condition, or when the condition names the stored revision', () => {
    expect(() => assertWritable(live)).not.toThrow()
    expect(() => assertWritable(live, { ifRevision: [4] })).not.toThrow()
    expect(() => assertWritable(live, { ifRevision: [2, 3, 4] })).not.toThrow()
  })

  it('refuses a stale write with the current post, and an empty condition matches nothing', () => {
    const refusal = stale(liveItem(live))
    expect(() => assertWritable(live, { ifRevision: [3] })).toThrow(refusal)
    expect(() => assertWritable(live, { ifRevision: [] })).toThrow(refusal)
    try {
      assertWritable(live, { ifRevision: [3] })
    } catch (error) {
      expect(error).toEqual(refusal)
    }
  })

  it('reports NotFound for a missing or trashed post, whatever the condition', () => {
    const gone = trashed(live, t(1)).item
    expect(() => assertWritable(undefined)).toThrow(notFound())
    expect(() => assertWritable(gone, { ifRevision: [5] })).toThrow(notFound())
  })

  it('restores only a trashed post: NotFound when missing, NotInTrash when live', () => {
    expect(() => assertRestorable(undefined)).toThrow(notFound())
    expect(() => assertRestorable(live)).toThrow(conflict('NotInTrash'))
    expect(() => assertRestorable(trashed(live, t(1)).item)).not.toThrow()
  })
})

describe('idempotency', () => {
  it('fingerprints a draft by its fields: the same draft alike, any change different', () => {
    expect(fingerprintOf(draft)).toBe(fingerprintOf({ ...draft }))
    expect(fingerprintOf({ ...draft, title: 'Other' })).not.toBe(fingerprintOf(draft))
    expect(fingerprintOf({ ...draft, body: 'Other' })).not.toBe(fingerprintOf(draft))
    expect(fingerprintOf({ ...draft, author: 'Other' })).not.toBe(fingerprintOf(draft))
    // Fields cannot bleed into each other.
    expect(fingerprintOf({ title: 'a b', body: 'c', author: 'd' })).not.toBe(
      fingerprintOf({ title: 'a', body: 'b c', author: 'd' }),
    )
  })

  it('keeps a key for 24 hours, and not a millisecond longer', () => {
    const record = { key: 'k', fingerprint: 'f', newsId: 'n', createdAt: iso(0) }
    expect(IDEMPOTENCY_KEY_TTL_MS).toBe(24 * 60 * 60 * 1000)
    expect(isKeyLive(record, instant(0))).toBe(true)
    expect(isKeyLive(record, new Date(instant(0).getTime() + IDEMPOTENCY_KEY_TTL_MS - 1))).toBe(
      true,
    )
    expect(isKeyLive(record, new Date(instant(0).getTime() + IDEMPOTENCY_KEY_TTL_MS))).toBe(false)
  })

  it.each([
    ['a', true],
    ['3f1e2d9c-uuid-like-0001', true],
    ['x'.repeat(255), true],
    ['!~', true],
    ['', false],
    ['x'.repeat(256), false],
    ['has space', false],
    ['tab\there', false],
    ['naïve', false],
    ['line\nbreak', false],
  ])('accepts %j as an Idempotency-Key: %s', (key, valid) => {
    expect(isIdempotencyKey(key)).toBe(valid)
  })

  it('answers a repeated create with the post as its first revision made it', () => {
    const first = created('id-1', draft, t(0))
    const later = edited(first.item, { title: 'Since edited' }, t(3))
    if (later === undefined) throw new Error('no edit')
    expect(firstVersion(later.item, first.revision)).toEqual(liveItem(first.item))
  })
})

describe('purge', () => {
  it(`keeps the trash ${DEFAULT_TRASH_DAYS} days unless told otherwise, keys 24 hours and the change log 30 days`, () => {
    const now = new Date('2026-03-31T12:00:00.000Z')
    expect(purgeCutoffs(now)).toEqual({
      trashedBefore: '2026-03-01T12:00:00.000Z',
      keysBefore: '2026-03-30T12:00:00.000Z',
      changesBefore: '2026-03-01T12:00:00.000Z',
    })
    expect(purgeCutoffs(now, 7).trashedBefore).toBe('2026-03-24T12:00:00.000Z')
    expect(purgeCutoffs(now, 0).trashedBefore).toBe(now.toISOString())
  })
})

describe('versionAt', () => {
  const history: NewsRevision[] = [
    { ...draft, revision: 3, action: 'edit', at: iso(30), editor: EDITOR },
    { ...draft, revision: 2, action: 'edit', at: iso(20), editor: EDITOR },
    { ...draft, revision: 1, action: 'create', at: iso(10), editor: EDITOR },
  ]

  it('finds the version that was current at an instant: the newest made before it', () => {
    expect(versionAt(history, iso(25))?.revision).toBe(2)
    expect(versionAt(history, iso(31))?.revision).toBe(3)
    // A change made exactly at the instant is one to undo: the version before it counts.
    expect(versionAt(history, iso(20))?.revision).toBe(1)
  })

  it('finds nothing before the post was created', () => {
    expect(versionAt(history, iso(10))).toBeUndefined()
    expect(versionAt(history, iso(5))).toBeUndefined()
  })
})
