import { thisPage, type Draft, type DraftStorage } from '@/ui/shared/draft-storage'

/*
 * Reading and writing a form's draft: only the forms need it, so it loads with them, not with
 * the first visit (draft-storage.ts, which the news store needs, stays small).
 */

/**
 * The draft kept under `key`, when it holds a string for each of `fields`; anything else (an
 * older format, a hand-edited value) counts as no draft.
 */
export function readDraft<Field extends string>(
  storage: DraftStorage,
  key: string,
  fields: readonly Field[],
): Draft<Record<Field, string>> | undefined {
  return parseDraft(storage.read(key), fields)
}

/** A draft as storage keeps it, when it holds a string for each of `fields`. */
export function parseDraft<Field extends string>(
  text: string | undefined,
  fields: readonly Field[],
): Draft<Record<Field, string>> | undefined {
  if (text === undefined) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null) return undefined
    const { values, revision, base, page } = parsed as {
      values?: unknown
      revision?: unknown
      base?: unknown
      page?: unknown
    }
    const kept = fieldsOf(values, fields)
    if (kept === undefined) return undefined
    const keptBase = fieldsOf(base, fields)
    return {
      values: kept,
      ...(typeof revision === 'number' && Number.isInteger(revision) ? { revision } : {}),
      ...(keptBase === undefined ? {} : { base: keptBase }),
      ...(typeof page === 'string' ? { page } : {}),
    }
  } catch {
    return undefined
  }
}

/** `values` when it holds a string for each of `fields`. */
function fieldsOf<Field extends string>(
  values: unknown,
  fields: readonly Field[],
): Record<Field, string> | undefined {
  if (typeof values !== 'object' || values === null) return undefined
  const record = values as Record<string, unknown>
  if (!fields.every((field) => typeof record[field] === 'string')) return undefined
  return Object.fromEntries(fields.map((field) => [field, record[field]])) as Record<Field, string>
}

/** Keeps `draft`, with the time it was written: a fresh tab offers the newest. */
export function writeDraft<Values>(
  storage: DraftStorage,
  key: string,
  draft: Draft<Values>,
  now = Date.now(),
) {
  storage.write(key, JSON.stringify({ ...draft, page: thisPage, savedAt: now }))
}
