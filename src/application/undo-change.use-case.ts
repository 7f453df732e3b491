import { conflict, isDomainError, notFound, stale } from '@/domain/domain-error'
import type { Editor } from '@/domain/editor'
import { isNewsId } from '@/domain/news-id'
import type { NewsChangeKind } from '@/domain/news-change.entity'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { attempt, fail, type Result } from '@/domain/result'
import { undoOfChange, type ChangeUndo } from '@/domain/rules/undo.rules'

export interface UndoChangeInput {
  /** The post's id. */
  readonly id: string
  readonly kind: NewsChangeKind
  /** The revision the change made. */
  readonly revision: number
  /** Who undoes it: recorded on the new revision. */
  readonly editor?: Editor
}

/**
 * 'Undo this change' on the recent changes (domain/rules/undo.rules.ts, undoOfChange): only
 * while the change is still the newest of its post. When the post changed since, nothing is
 * done: Stale with the post as it is, or Conflict(InTrash) when it is in the trash now.
 * Answers what was done.
 */
export class UndoChange {
  constructor(private readonly news: NewsRepository) {}

  async execute({ id, kind, revision, editor }: UndoChangeInput): Promise<Result<ChangeUndo>> {
    const undo = undoOfChange({ kind, revision })
    if (!isNewsId(id) || undo === undefined) return fail(notFound())
    return attempt(async () => {
      const [newest] = (await this.news.revisions(id, { limit: 1 })).items
      if (newest?.revision !== revision) await this.changedSince(id)
      const condition = { ifRevision: [revision] }
      // Each write names the revision the change made: a change made meanwhile is Stale.
      if (undo.kind === 'revert') {
        await this.news.restoreRevision(id, undo.toRevision, editor, condition)
      } else if (undo.kind === 'trash') await this.news.remove(id, condition, editor)
      else await this.news.restore(id, editor)
      return undo
    })
  }

  /** The post changed after the change: say how it stands now. */
  private async changedSince(id: string): Promise<never> {
    const current = await this.news.get(id).catch((thrown: unknown) => {
      const error = isDomainError(thrown) ? thrown : undefined
      if (error?.code === 'NotFound' && error.trashed !== undefined) {
        throw conflict('InTrash')
      }
      throw thrown
    })
    throw stale(current)
  }
}
