import {
  draftKeys,
  localDraftStorage,
  memoryDraftStorage,
  thisPage,
} from '@/ui/shared/draft-storage'
import { readDraft, writeDraft } from '@/ui/shared/draft-values'
import { restoredDraftText } from '@/ui/shared/draft-notice'
import { browserTab } from '@/ui/shared/browser-tab'
import { FormDraft } from '@/ui/shared/use-form-draft'

const FIELDS = ['title', 'author', 'body'] as const
const empty = { title: '', author: '', body: '' }
const typed = { title: 'Bridge repairs', author: 'Dan', body: '' }

/** A Storage whose every call throws, as in private mode or with the quota full. */
function brokenStorage(): Storage {
  const fail = () => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
  }
  return {
    length: 0,
    clear: fail,
    getItem: fail,
    key: fail,
    removeItem: fail,
    setItem: fail,
  }
}

/** A Storage in a Map: the browser's local or session storage, shared by the tabs it is given to. */
function mapStorage(): Storage {
  const entries = new Map<string, string>()
  return {
    get length() {
      return entries.size
    },
    clear: () => entries.clear(),
    getItem: (key) => entries.get(key) ?? null,
    key: (index) => [...entries.keys()][index] ?? null,
    removeItem: (key) => void entries.delete(key),
    setItem: (key, value) => void entries.set(key, String(value)),
  }
}

/** The browser's Web Locks, as far as adoption asks: which tabs hold theirs, one task at a time. */
function locksOfOpenTabs(...open: string[]) {
  return {
    locks: {
      query: async () => ({ held: open.map((id) => ({ name: `newswire.tab.${id}` })) }),
      request: async (_name: string, work: () => unknown) => work(),
    },
  }
}

describe('drafts of many tabs', () => {
  afterEach(() => vi.unstubAllGlobals())

  it("keeps each tab's draft under a key of its own: one tab's save leaves another's draft", () => {
    const local = mapStorage()
    const tabA = localDraftStorage(
      () => local,
      () => 'a',
    )
    const tabB = localDraftStorage(
      () => local,
      () => 'b',
    )
    writeDraft(tabA, draftKeys.edit('harbour-1'), { values: typed })
    writeDraft(tabB, draftKeys.edit('harbour-1'), { values: { ...typed, body: 'B' } })

    tabA.remove(draftKeys.edit('harbour-1'))

    expect(readDraft(tabA, draftKeys.edit('harbour-1'), FIELDS)).toBeUndefined()
    expect(readDraft(tabB, draftKeys.edit('harbour-1'), FIELDS)?.values.body).toBe('B')
  })

  it("finds the tab's id again after a reload, from the tab's session storage", () => {
    const session = mapStorage()
    const first = browserTab(() => session)()
    const reloaded = browserTab(() => session)()
    const otherTab = browserTab(() => mapStorage())()

    expect(reloaded).toBe(first)
    expect(otherTab).not.toBe(first)
  })

  it("lets a fresh tab take the newest draft a closed tab left, once, and never an open tab's", async () => {
    vi.stubGlobal('navigator', locksOfOpenTabs('open', 'fresh'))
    const local = mapStorage()
    const key = draftKeys.edit('harbour-1')
    const tab = (id: string) =>
      localDraftStorage(
        () => local,
        () => id,
      )
    writeDraft(tab('closed-long-ago'), key, { values: typed }, 1)
    writeDraft(tab('closed-lately'), key, { values: { ...typed, body: 'Lately' } }, 2)
    writeDraft(tab('open'), key, { values: { ...typed, body: 'Still open' } }, 3)

    const taken = await tab('fresh').adopt?.(key)

    expect(JSON.parse(taken ?? '{}')).toMatchObject({ values: { body: 'Lately' } })
    expect(readDraft(tab('fresh'), key, FIELDS)?.values.body).toBe('Lately')
    expect(readDraft(tab('closed-lately'), key, FIELDS)).toBeUndefined()
    expect(readDraft(tab('open'), key, FIELDS)?.values.body).toBe('Still open')
    // Once: the fresh tab has a draft now, and takes no other.
    expect(await tab('fresh').adopt?.(key)).toBeUndefined()
  })

  it('lets a fresh tab take a draft kept before each tab kept its own', async () => {
    vi.stubGlobal('navigator', locksOfOpenTabs('fresh'))
    const local = mapStorage()
    local.setItem(draftKeys.contact(), JSON.stringify({ values: typed }))

    const taken = await localDraftStorage(
      () => local,
      () => 'fresh',
    ).adopt?.(draftKeys.contact())

    expect(JSON.parse(taken ?? '{}')).toEqual({ values: typed })
    expect(local.getItem(draftKeys.contact())).toBeNull()
  })

  it('leaves every draft where it is when the browser cannot tell which tabs are open', async () => {
    vi.stubGlobal('navigator', {})
    const local = mapStorage()
    const key = draftKeys.add()
    writeDraft(
      localDraftStorage(
        () => local,
        () => 'closed',
      ),
      key,
      { values: typed },
    )

    expect(
      await localDraftStorage(
        () => local,
        () => 'fresh',
      ).adopt?.(key),
    ).toBeUndefined()
    expect(local.length).toBe(1)
  })
})

describe('the words for a restored draft', () => {
  it.each([
    [
      'written by this page load',
      { values: typed, page: thisPage },
      'Your unsent text is back in the form.',
    ],
    [
      'written by an earlier load of the page',
      { values: typed, page: 'earlier' },
      'Your unsent text from an earlier visit is back in the form.',
    ],
    [
      'left by a tab that was closed',
      { values: typed, page: 'earlier', adopted: true },
      'Your unsent text from a tab you closed is back in the form.',
    ],
  ])('say where a draft %s came from', (_, draft, text) => {
    expect(restoredDraftText(draft)).toBe(text)
  })
})

describe('draft storage', () => {
  it('keeps one key per form and per post', () => {
    expect(draftKeys.add()).toBe('newswire.draft.add')
    expect(draftKeys.edit('harbour-1')).toBe('newswire.draft.edit.harbour-1')
    expect(draftKeys.contact()).toBe('newswire.draft.contact')
  })

  it('loses the draft, never the visit, when storage refuses (private mode, quota full)', () => {
    const storage = localDraftStorage(brokenStorage)
    expect(() => writeDraft(storage, draftKeys.add(), { values: typed })).not.toThrow()
    expect(readDraft(storage, draftKeys.add(), FIELDS)).toBeUndefined()
    expect(() => storage.remove(draftKeys.add())).not.toThrow()
  })

  it('works without any storage at all', () => {
    const storage = localDraftStorage(() => undefined)
    writeDraft(storage, draftKeys.add(), { values: typed })
    expect(readDraft(storage, draftKeys.add(), FIELDS)).toBeUndefined()
  })

  it('counts anything but a string for each field as no draft', () => {
    const storage = memoryDraftStorage()
    for (const text of ['not json', '{"values":{"title":1}}', 'null', '{"values":{"title":"x"}}']) {
      storage.write(draftKeys.add(), text)
      expect(readDraft(storage, draftKeys.add(), FIELDS)).toBeUndefined()
    }
    storage.write(draftKeys.add(), JSON.stringify({ values: typed, revision: 3, extra: true }))
    expect(readDraft(storage, draftKeys.add(), FIELDS)).toEqual({ values: typed, revision: 3 })
  })
})

describe('a form’s draft', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('writes what is typed once typing pauses', () => {
    const storage = memoryDraftStorage()
    const draft = new FormDraft({ storage, key: draftKeys.add(), fields: FIELDS })
    draft.setBaseline(empty)
    draft.track(typed)
    expect(storage.keys()).toEqual([])
    vi.advanceTimersByTime(300)
    expect(readDraft(storage, draftKeys.add(), FIELDS)).toEqual({ values: typed, page: thisPage })
  })

  it('keeps nothing that equals what the form shows without a draft', () => {
    const storage = memoryDraftStorage()
    writeDraft(storage, draftKeys.add(), { values: typed })
    const draft = new FormDraft({ storage, key: draftKeys.add(), fields: FIELDS })
    draft.setBaseline(empty)
    draft.track(empty)
    draft.flush()
    expect(storage.keys()).toEqual([])
  })

  it('remembers the revision the edit draft was started from while it is worked on', () => {
    const storage = memoryDraftStorage()
    const key = draftKeys.edit('harbour-1')
    const draft = new FormDraft({ storage, key, fields: FIELDS })
    draft.setBaseline(empty, 3)
    draft.track(typed)
    draft.flush()
    draft.setBaseline(empty, 4)
    draft.track({ ...typed, body: 'More' })
    draft.flush()
    expect(readDraft(storage, key, FIELDS)?.revision).toBe(3)
  })

  it('keeps the version an edit draft was started from, for the review of a conflict', () => {
    const storage = memoryDraftStorage()
    const key = draftKeys.edit('harbour-1')
    const stored = { title: 'Stored', author: 'Ada', body: 'Stored body' }
    const draft = new FormDraft({ storage, key, fields: FIELDS })
    draft.setBaseline(stored, 3)
    draft.track({ ...stored, title: 'Mine' })
    draft.flush()
    draft.setBaseline({ ...stored, title: 'Theirs' }, 4)
    draft.track({ ...stored, title: 'Mine again' })
    draft.flush()

    expect(readDraft(storage, key, FIELDS)).toEqual({
      values: { ...stored, title: 'Mine again' },
      revision: 3,
      base: stored,
      page: thisPage,
    })
    expect(new FormDraft({ storage, key, fields: FIELDS }).startedFrom()).toEqual(stored)
  })

  it('takes a draft that arrives late only while nothing was typed', () => {
    const late = JSON.stringify({ values: typed })
    const untouched = new FormDraft({ storage: memoryDraftStorage(), key: 'k', fields: FIELDS })
    untouched.setBaseline(empty)
    untouched.track(empty)
    const typedIn = new FormDraft({ storage: memoryDraftStorage(), key: 'k', fields: FIELDS })
    typedIn.setBaseline(empty)
    typedIn.track({ ...empty, title: 'Typed first' })

    expect(untouched.offer(late)).toBe(true)
    expect(untouched.restored).toEqual({ values: typed, adopted: true })
    expect(typedIn.offer(late)).toBe(false)
    expect(typedIn.restored).toBeUndefined()
  })

  it('never writes a draft it was told to forget, even as the form closes', () => {
    const storage = memoryDraftStorage()
    const draft = new FormDraft({ storage, key: draftKeys.add(), fields: FIELDS })
    draft.setBaseline(empty)
    draft.track(typed)
    draft.clear()
    draft.track(typed)
    draft.flush()
    vi.advanceTimersByTime(1000)
    expect(storage.keys()).toEqual([])
  })
})
