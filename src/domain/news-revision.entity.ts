import type { Editor } from '@/domain/editor'
import type { NewsDraft } from '@/domain/news-item.entity'

/** What a recorded change did to a post. */
export type RevisionAction = 'create' | 'edit' | 'delete' | 'restore'

export const REVISION_ACTIONS: readonly RevisionAction[] = ['create', 'edit', 'delete', 'restore']

/**
 * One version in a post's append-only history: the post's fields as the change left them.
 * Numbers start at 1 and grow by one per change; nothing is ever rewritten.
 */
export interface NewsRevision extends NewsDraft {
  readonly revision: number
  readonly action: RevisionAction
  /** When the change was made, ISO 8601 in UTC. */
  readonly at: string
  /** Who made it: a client's pseudonym, or `operator` (domain/editor.ts). */
  readonly editor: Editor
  /** For a restored version, the number of the revision it brought back. */
  readonly restoredFrom?: number
  /**
   * Set when the operator hid this version: its title, body and author are erased (empty);
   * its number, action, time and editor stay.
   */
  readonly hidden?: boolean
}
