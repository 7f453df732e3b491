import type { Editor } from '@/domain/editor'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import type { NewsStore } from '@/domain/ports/news-store.port'
import { attempt, type Result } from '@/domain/result'
import { inRollback, planRollback } from '@/domain/rules/undo.rules'
import { carryOut, historyBack, type UndoStep } from '@/application/undo-steps'

export interface RollbackInput {
  readonly editor: Editor
  /** Only their changes from this time on; all of them when absent. */
  readonly since?: Date
  /** Undo even where someone else changed the post after them. */
  readonly force?: boolean
  /** Say what would be done, and do nothing. */
  readonly dryRun?: boolean
}

/**
 * The operator's rollback (`rollback --editor E`): everything one editor did is undone, as new
 * revisions made by the operator. Each post they edited goes back to its last version by someone
 * else, posts they created go to the trash, posts they deleted come back. A post that someone
 * else changed after them is reported and left alone, unless forced.
 */
export class RollbackEditor {
  constructor(
    private readonly store: NewsStore,
    private readonly news: NewsRepository,
  ) {}

  async execute({
    editor,
    since,
    force = false,
    dryRun = false,
  }: RollbackInput): Promise<Result<readonly UndoStep[]>> {
    return attempt(async () => {
      const from = since?.toISOString()
      const ids = await this.store.changedSince(from ?? new Date(0).toISOString(), { editor })
      const steps: UndoStep[] = []
      for (const id of [...ids].sort()) {
        // Far enough back to find the version to return to: the newest not theirs (or, forced,
        // the one before their first change in scope: the whole window).
        const scope = { editor, since: from, force }
        const history = await historyBack(
          this.news,
          id,
          (oldest) =>
            !inRollback(oldest, scope) && (!force || (from !== undefined && oldest.at < from)),
        )
        const [latest] = history
        if (latest === undefined) continue
        const plan = planRollback(history, scope)
        steps.push(...(await carryOut(this.news, id, latest, plan, dryRun)))
      }
      return steps
    })
  }
}
