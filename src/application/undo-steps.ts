import { OPERATOR } from '@/domain/editor'
import type { NewsRevision } from '@/domain/news-revision.entity'
import { MAX_HISTORY_PAGE_SIZE, type NewsRepository } from '@/domain/ports/news-repository.port'
import type { UndoPlan } from '@/domain/rules/undo.rules'

/**
 * What the operator's undos (rollback, restore) share: reading back through a post's history as
 * far as a plan needs, and carrying a plan out as the operator, step by step.
 */

/** What undoing did (or, in a dry run, would do) to one post; `revision` is absent in a dry run. */
export type UndoStep =
  | {
      readonly kind: 'untrashed' | 'trashed'
      readonly id: string
      readonly title: string
      readonly revision?: number
    }
  | {
      readonly kind: 'reverted'
      readonly id: string
      readonly title: string
      readonly toRevision: number
      readonly revision?: number
    }
  | {
      readonly kind: 'skipped'
      readonly id: string
      readonly title: string
      readonly why: 'changed-after' | 'hidden'
      readonly by?: string
      readonly revision: number
    }

/**
 * A post's versions, newest first, a bounded page at a time, until `enough` says the versions
 * read reach back far enough (or the history ends): nothing else of a history that vandalism may
 * have made long is kept.
 */
export async function historyBack(
  news: NewsRepository,
  id: string,
  enough: (oldestRead: NewsRevision) => boolean,
): Promise<NewsRevision[]> {
  const history: NewsRevision[] = []
  let cursor: string | undefined
  do {
    const page = await news.revisions(id, { limit: MAX_HISTORY_PAGE_SIZE, cursor })
    history.push(...page.items)
    const oldest = history.at(-1)
    if (oldest !== undefined && enough(oldest)) break
    cursor = page.next
  } while (cursor !== undefined)
  return history
}

/**
 * Carries out `plan` on the post whose newest version is `latest`, as the operator; with
 * `dryRun`, only says what it would do.
 */
export async function carryOut(
  news: NewsRepository,
  id: string,
  latest: NewsRevision,
  plan: UndoPlan,
  dryRun: boolean,
): Promise<UndoStep[]> {
  const { title } = latest
  if (plan.kind === 'skipped') {
    const { why, by, revision } = plan
    return [{ kind: 'skipped', id, title, why, revision, ...(by === undefined ? {} : { by }) }]
  }
  const steps: UndoStep[] = []
  let revision = latest.revision
  for (const action of plan.actions) {
    if (action.kind === 'untrash') {
      if (dryRun) steps.push({ kind: 'untrashed', id, title })
      else {
        const item = await news.restore(id, OPERATOR)
        revision = item.revision
        steps.push({ kind: 'untrashed', id, title: item.title, revision })
      }
    } else if (action.kind === 'revert') {
      const { toRevision } = action
      if (dryRun) steps.push({ kind: 'reverted', id, title, toRevision })
      else {
        const item = await news.restoreRevision(id, toRevision, OPERATOR)
        revision = item.revision
        steps.push({ kind: 'reverted', id, title: item.title, toRevision, revision })
      }
    } else if (dryRun) steps.push({ kind: 'trashed', id, title })
    else {
      await news.remove(id, { ifRevision: [revision] }, OPERATOR)
      revision += 1
      steps.push({ kind: 'trashed', id, title, revision })
    }
  }
  return steps
}
