import type { NewsRevision } from '@/domain/news-revision.entity'
import { MAX_HISTORY_PAGE_SIZE, type NewsRepository } from '@/domain/ports/news-repository.port'
import type { NewsStore } from '@/domain/ports/news-store.port'
import { attempt, type Result } from '@/domain/result'
import { sameDraft, versionAt } from '@/domain/rules/news-history.rules'

/** What undoing did to one post. */
export type UndoStep =
  | {
      readonly kind: 'untrashed'
      readonly id: string
      readonly title: string
      readonly revision: number
    }
  | {
      readonly kind: 'reverted'
      readonly id: string
      readonly title: string
      readonly toRevision: number
      readonly revision: number
    }

/**
 * The operator's undo for vandalism: every post deleted since `since` comes back from the
 * trash, and every post edited since then returns to the version it had at `since`, each as
 * new revisions, so that the undo itself can be undone. Posts created since are left alone.
 */
export class UndoChangesSince {
  constructor(
    private readonly store: NewsStore,
    private readonly news: NewsRepository,
  ) {}

  async execute(since: Date): Promise<Result<readonly UndoStep[]>> {
    return attempt(async () => {
      const instant = since.toISOString()
      const steps: UndoStep[] = []
      const ids = [...(await this.store.changedSince(instant))].sort()
      for (const id of ids) steps.push(...(await this.undo(id, instant)))
      return steps
    })
  }

  private async undo(id: string, instant: string): Promise<UndoStep[]> {
    const { latest, then } = await this.versionsOf(id, instant)
    // Made after `since`, or already in the trash then: nothing to put back.
    if (then === undefined || then.action === 'delete' || latest === undefined) return []
    const steps: UndoStep[] = []
    let current: NewsRevision = latest
    if (current.action === 'delete') {
      const item = await this.news.restore(id)
      steps.push({ kind: 'untrashed', id, title: item.title, revision: item.revision })
      current = { ...current, revision: item.revision }
    }
    if (!sameDraft(current, then)) {
      const item = await this.news.restoreRevision(id, then.revision)
      steps.push({
        kind: 'reverted',
        id,
        title: item.title,
        toRevision: then.revision,
        revision: item.revision,
      })
    }
    return steps
  }

  /**
   * The newest version, and the one current at `instant`: pages back through the history,
   * newest first and a bounded page at a time, only until that version is found, keeping
   * nothing else of a history that vandalism may have made long.
   */
  private async versionsOf(
    id: string,
    instant: string,
  ): Promise<{ readonly latest?: NewsRevision; readonly then?: NewsRevision }> {
    let page = await this.news.revisions(id, { limit: MAX_HISTORY_PAGE_SIZE })
    const [latest] = page.items
    for (;;) {
      const then = versionAt(page.items, instant)
      if (then !== undefined || page.next === undefined) return { latest, then }
      page = await this.news.revisions(id, { limit: MAX_HISTORY_PAGE_SIZE, cursor: page.next })
    }
  }
}
