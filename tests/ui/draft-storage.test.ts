import {
  draftKeys,
  localDraftStorage,
  memoryDraftStorage,
  readDraft,
  writeDraft,
} from '@/ui/shared/draft-storage'
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
    expect(readDraft(storage, draftKeys.add(), FIELDS)).toEqual({ values: typed })
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
