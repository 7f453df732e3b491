import type { Editor } from '@/domain/editor'
import type { NewsChangeKind } from '@/domain/news-change.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import { sameDraft, versionAt } from '@/domain/rules/news-history.rules'

/**
 * The operator's two undos, planned from a post's history (newest first) without touching it,
 * so that a dry run prints exactly what the real run does:
 * - rollback: everything one editor did goes (their edits back to the last version by someone
 *   else, their new posts to the trash, their deletions back from it);
 * - restore: every change made in a window goes, the post back to the version it had then.
 * A post someone else changed after the undone changes is left alone and reported, unless forced.
 */

/** One step of an undo, in the order it runs. */
export type UndoAction =
  | { readonly kind: 'untrash' }
  | { readonly kind: 'revert'; readonly toRevision: number }
  | { readonly kind: 'trash' }

/** What undoing does to one post. */
export type UndoPlan =
  | { readonly kind: 'steps'; readonly actions: readonly UndoAction[] }
  /** Left alone: changed later by someone else (`by`, in `revision`), or its target is hidden. */
  | {
      readonly kind: 'skipped'
      readonly why: 'changed-after' | 'hidden'
      readonly by?: Editor
      readonly revision: number
    }

const NOTHING: UndoPlan = { kind: 'steps', actions: [] }

/**
 * The steps that take a post from its newest version to `target` (undefined: the post should not
 * exist, so it goes to the trash).
 */
function stepsTo(latest: NewsRevision, target: NewsRevision | undefined): UndoPlan {
  if (target?.hidden === true) return { kind: 'skipped', why: 'hidden', revision: target.revision }
  const actions: UndoAction[] = []
  let live = latest.action !== 'delete'
  const targetLive = target !== undefined && target.action !== 'delete'
  if (!live && targetLive) {
    actions.push({ kind: 'untrash' })
    live = true
  }
  if (live && target !== undefined && !sameDraft(latest, target)) {
    actions.push({ kind: 'revert', toRevision: target.revision })
  }
  if (live && !targetLive) actions.push({ kind: 'trash' })
  return { kind: 'steps', actions }
}

export interface RollbackScope {
  readonly editor: Editor
  /** Only the editor's changes at or after this instant; all of them when absent. */
  readonly since?: string
  /** Undo even when someone else changed the post after the editor. */
  readonly force?: boolean
}

/** Whether a revision is one that a rollback undoes. */
export function inRollback(revision: NewsRevision, scope: RollbackScope): boolean {
  return (
    revision.editor === scope.editor && (scope.since === undefined || revision.at >= scope.since)
  )
}

/**
 * Rolling back one editor on one post. `history` is newest first. The editor's run of changes at
 * the top of the history is undone: the post goes back to the newest version not in it (the
 * last version by someone else), or to the trash if there is none (they created it). When the
 * newest version is someone else's, the post is skipped; forced, it goes back to the version
 * before the editor's first change in scope, which `history` must then reach.
 */
export function planRollback(history: readonly NewsRevision[], scope: RollbackScope): UndoPlan {
  const [latest] = history
  const inScope = (revision: NewsRevision): boolean => inRollback(revision, scope)
  const first = history.filter(inScope).at(-1)
  if (latest === undefined || first === undefined) return NOTHING
  if (inScope(latest)) {
    return stepsTo(
      latest,
      history.find((revision) => !inScope(revision)),
    )
  }
  if (scope.force !== true) {
    return { kind: 'skipped', why: 'changed-after', by: latest.editor, revision: latest.revision }
  }
  return stepsTo(
    latest,
    history.find((revision) => revision.revision < first.revision),
  )
}

export interface RestoreWindow {
  readonly since: string
  /** Changes at or after this instant are kept; a post that has any is left alone. */
  readonly until?: string
  /** Only posts this editor changed in the window. */
  readonly editor?: Editor
}

/**
 * Restoring one post to the version it had at `since`. `history` is newest first, and reaches
 * back at least to the newest version made before `since`. A post made in the window is left.
 */
export function planRestore(history: readonly NewsRevision[], window: RestoreWindow): UndoPlan {
  const [latest] = history
  const then = versionAt(history, window.since)
  if (latest === undefined || then === undefined) return NOTHING
  const after =
    window.until === undefined
      ? undefined
      : history.find((revision) => revision.at >= (window.until ?? ''))
  if (after !== undefined) {
    return { kind: 'skipped', why: 'changed-after', by: after.editor, revision: after.revision }
  }
  // Already in the trash then: it stays there, as restore always did.
  if (then.action === 'delete') return NOTHING
  return stepsTo(latest, then)
}

/** How 'Undo this change' puts one change right, on the recent changes. */
export type ChangeUndo =
  /** An edit: the version before it becomes current again. */
  | { readonly kind: 'revert'; readonly toRevision: number }
  /** A new post, or one brought back from the trash: it goes (back) to the trash. */
  | { readonly kind: 'trash' }
  /** A deletion: the post comes back from the trash. */
  | { readonly kind: 'untrash' }

/**
 * The undo of a change that is still the newest of its post; undefined when there is none to
 * offer (an edit with no version before it). A change that is no longer the newest is not
 * undone alone: someone changed the post since, and its history is the place to decide.
 */
export function undoOfChange(change: {
  readonly kind: NewsChangeKind
  readonly revision: number
}): ChangeUndo | undefined {
  switch (change.kind) {
    case 'edited':
      return change.revision > 1 ? { kind: 'revert', toRevision: change.revision - 1 } : undefined
    case 'created':
    case 'restored':
      return { kind: 'trash' }
    case 'deleted':
      return { kind: 'untrash' }
  }
}
