import { diffWords } from 'diff'

export type DiffKind = 'added' | 'removed' | 'same'

export interface DiffPart {
  readonly kind: DiffKind
  readonly text: string
}

/** `after` against `before`, word by word. */
export function wordDiff(before: string, after: string): DiffPart[] {
  return diffWords(before, after).map((change): DiffPart => ({
    kind: change.added ? 'added' : change.removed ? 'removed' : 'same',
    text: change.value,
  }))
}
