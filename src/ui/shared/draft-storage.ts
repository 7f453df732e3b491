/**
 * Where the forms keep what a visitor typed and has not sent yet, so that it survives a reload
 * or a closed tab. It is an effect the app's edge provides: machines ask for it by name, the
 * screens use it through useFormDraft, and nothing in a machine definition touches storage.
 */
export interface DraftStorage {
  /** The text kept under the key, if any. */
  read(key: string): string | undefined
  write(key: string, value: string): void
  remove(key: string): void
}

/** A form's draft: the values, and for an edit the revision of the post it was started from. */
export interface Draft<Values> {
  readonly values: Values
  readonly revision?: number
}

/** One key per form, and per post for the edit form. */
export const draftKeys = {
  add: () => 'newswire.draft.add',
  edit: (id: string) => `newswire.draft.edit.${id}`,
  contact: () => 'newswire.draft.contact',
} as const

/**
 * The browser's local storage. Any failure — storage turned off, private mode, the quota full —
 * loses the draft, never the visit: a draft is a convenience.
 */
export function localDraftStorage(
  storage: () => Storage | undefined = () => globalThis.localStorage,
): DraftStorage {
  const attempt = <T>(work: (store: Storage) => T): T | undefined => {
    try {
      const store = storage()
      return store === undefined ? undefined : work(store)
    } catch {
      return undefined
    }
  }
  return {
    read: (key) => attempt((store) => store.getItem(key)) ?? undefined,
    write: (key, value) => void attempt((store) => store.setItem(key, value)),
    remove: (key) => void attempt((store) => store.removeItem(key)),
  }
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

/**
 * The draft kept under `key`, when it holds a string for each of `fields`; anything else (an
 * older format, a hand-edited value) counts as no draft.
 */
export function readDraft<Field extends string>(
  storage: DraftStorage,
  key: string,
  fields: readonly Field[],
): Draft<Record<Field, string>> | undefined {
  const text = storage.read(key)
  if (text === undefined) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null) return undefined
    const { values, revision } = parsed as { values?: unknown; revision?: unknown }
    if (typeof values !== 'object' || values === null) return undefined
    const record = values as Record<string, unknown>
    if (!fields.every((field) => typeof record[field] === 'string')) return undefined
    const kept = Object.fromEntries(fields.map((field) => [field, record[field]]))
    return {
      values: kept as Record<Field, string>,
      ...(typeof revision === 'number' && Number.isInteger(revision) ? { revision } : {}),
    }
  } catch {
    return undefined
  }
}

export function writeDraft<Values>(storage: DraftStorage, key: string, draft: Draft<Values>) {
  storage.write(key, JSON.stringify(draft))
}
