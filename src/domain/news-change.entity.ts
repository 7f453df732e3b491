import type { Editor } from '@/domain/editor'
import type { RevisionAction } from '@/domain/news-revision.entity'

/** What happened to a post, as the site's live stream tells it. */
export type NewsChangeKind = 'created' | 'edited' | 'deleted' | 'restored'

export const NEWS_CHANGE_KINDS: readonly NewsChangeKind[] = [
  'created',
  'edited',
  'deleted',
  'restored',
]

/**
 * One entry of the site's change log: a post was created, edited, deleted or restored, on any
 * server sharing the database. `seq` orders every change of the site: it is the site's version
 * (the ChangeSignal) once that change committed, so a reader that has seen `seq` has seen every
 * change before it. A version restored from the history is an edit.
 */
export interface NewsChange {
  readonly seq: number
  /** The post's id. */
  readonly id: string
  readonly kind: NewsChangeKind
  /** The post's revision that the change made. */
  readonly revision: number
  /** When the change was made, ISO 8601 in UTC. */
  readonly at: string
}

/**
 * A change as the recent changes list it: the logged change, who made it, and the post's title
 * at the revision it made. A revision the operator hid is `hidden`, its title ''.
 */
export interface RecentChange extends NewsChange {
  readonly editor: Editor
  readonly title: string
  readonly hidden?: boolean
}

const KIND_OF_ACTION: Record<RevisionAction, NewsChangeKind> = {
  create: 'created',
  edit: 'edited',
  delete: 'deleted',
  restore: 'restored',
}

/**
 * The change that a recorded revision announces. A version brought back from the history is
 * recorded as a 'restore' with `restoredFrom` set: to a reader the post was edited (its text
 * changed while it stayed live), so it is announced as 'edited'; only a restore from the trash
 * is 'restored'.
 */
export function changeKindOf(action: RevisionAction, restoredFrom?: number): NewsChangeKind {
  return action === 'restore' && restoredFrom !== undefined ? 'edited' : KIND_OF_ACTION[action]
}
