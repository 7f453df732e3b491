import { browserTab } from '@/ui/shared/browser-tab'

/**
 * Where the forms keep what a visitor typed and has not sent yet, so that it survives a reload
 * or a closed tab. It is an effect the app's edge provides: machines ask for it by name, the
 * screens use it through useFormDraft, and nothing in a machine definition touches storage.
 * Each tab keeps its own drafts: a key names a form, and the storage keeps it for this tab.
 */
export interface DraftStorage {
  /** The text this tab kept under the key, if any. */
  read(key: string): string | undefined
  write(key: string, value: string): void
  remove(key: string): void
  /**
   * A tab with no draft of its own for `key` takes the newest one a closed tab left there, once
   * (it moves to this tab); another open tab's draft stays that tab's.
   */
  adopt?(key: string): Promise<string | undefined>
}

/**
 * A form's draft: the values; for an edit, the revision of the post it was started from and
 * that revision's values, against which the review of a conflict tells what the visitor changed.
 */
export interface Draft<Values> {
  readonly values: Values
  readonly revision?: number
  readonly base?: Values
  /** The page load that wrote it (see thisPage): a draft of this very page is no earlier visit. */
  readonly page?: string
  /** Left by a tab that was closed, and taken by this one. */
  readonly adopted?: boolean
}

/** This page load, as drafts name it. */
export const thisPage: string = globalThis.crypto.randomUUID().slice(0, 8)

/** One key per form, and per post for the edit form. */
export const draftKeys = {
  add: () => 'newswire.draft.add',
  edit: (id: string) => `newswire.draft.edit.${id}`,
  contact: () => 'newswire.draft.contact',
} as const

/** Where a tab keeps its draft of a form: the form's key, '#', the tab's id. */
const tabKey = (key: string, tab: string) => `${key}#${tab}`

/**
 * The browser's local storage, one key per form and tab (`tab` gives this tab's id). Any
 * failure — storage turned off, private mode, the quota full — loses the draft, never the
 * visit: a draft is a convenience.
 */
export function localDraftStorage(
  storage: () => Storage | undefined = () => globalThis.localStorage,
  tab: () => string = browserTab(),
): DraftStorage {
  const attempt = <T>(work: (store: Storage) => T): T | undefined => {
    try {
      const store = storage()
      return store === undefined ? undefined : work(store)
    } catch {
      return undefined
    }
  }
  const own = (key: string) => tabKey(key, tab())
  return {
    read: (key) => attempt((store) => store.getItem(own(key))) ?? undefined,
    write: (key, value) => void attempt((store) => store.setItem(own(key), value)),
    remove: (key) => void attempt((store) => store.removeItem(own(key))),
    adopt: async (key) => {
      const store = attempt((found) => found)
      if (store === undefined) return undefined
      try {
        const { adoptDraft } = await import('@/ui/shared/draft-adoption')
        return await adoptDraft(store, key, own(key))
      } catch {
        return undefined
      }
    },
  }
}

let browserDrafts: DraftStorage | undefined

/**
 * The storage the app was given (a test's), else the browser's local storage, made once on
 * first use: by the forms, whose code loads on demand, so that none of this is in a first visit.
 */
export function draftsOf(given: DraftStorage | undefined): DraftStorage {
  return given ?? (browserDrafts ??= localDraftStorage())
}

/** Storage in a Map, for tests: one per app, or shared to stand for a reload. */
export function memoryDraftStorage(): DraftStorage & { readonly keys: () => string[] } {
  const entries = new Map<string, string>()
  return {
    read: (key) => entries.get(key),
    write: (key, value) => void entries.set(key, value),
    remove: (key) => void entries.delete(key),
    keys: () => [...entries.keys()],
  }
}
