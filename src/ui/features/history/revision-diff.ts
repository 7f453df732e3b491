import type { NewsField } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import { wordDiff, type DiffPart } from '@/ui/shared/word-diff'

export type { DiffKind, DiffPart } from '@/ui/shared/word-diff'

export interface FieldDiff {
  readonly field: NewsField
  readonly label: string
  /** The field's text, word by word, against the previous version. */
  readonly parts: readonly DiffPart[]
}

export interface VersionDiff {
  /** The fields this version changed, with their word diffs. */
  readonly changed: readonly FieldDiff[]
  /** The labels of the fields it left as they were. */
  readonly unchanged: readonly string[]
}

/** The order a reader meets the fields in on the article. */
const FIELDS: readonly { readonly field: NewsField; readonly label: string }[] = [
  { field: 'title', label: 'Title' },
  { field: 'author', label: 'Author' },
  { field: 'body', label: 'Body' },
]

/**
 * What `version` changed against `previous` (the version before it), field by field. The
 * first version has nothing before it, so it shows its whole text, unmarked.
 */
export function versionDiff(
  version: NewsRevision,
  previous: NewsRevision | undefined,
): VersionDiff {
  const changed: FieldDiff[] = []
  const unchanged: string[] = []
  for (const { field, label } of FIELDS) {
    const after = version[field]
    if (previous === undefined) {
      changed.push({ field, label, parts: [{ kind: 'same', text: after }] })
      continue
    }
    const before = previous[field]
    if (before === after) {
      unchanged.push(label)
      continue
    }
    changed.push({ field, label, parts: wordDiff(before, after) })
  }
  return { changed, unchanged }
}
