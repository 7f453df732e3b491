import type { Editor } from '@/domain/editor'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import type { NewsStore } from '@/domain/ports/news-store.port'
import { attempt, type Result } from '@/domain/result'
import { planRestore } from '@/domain/rules/undo.rules'
import { carryOut, historyBack, type UndoStep } from '@/application/undo-steps'

export type { UndoStep } from '@/application/undo-steps'

export interface UndoChangesInput {
  readonly since: Date
  /** Only changes made before this; a post also changed since then is left alone. */
  readonly until?: Date
  /** Only posts this editor changed in the window. */
  readonly editor?: Editor
  /** Say what would be done, and do nothing. */
  readonly dryRun?: boolean
}

/**
 * The operator's undo for vandalism (`restore --since`): every post deleted since `since` comes
 * back from the trash, and every post edited since then returns to the version it had at
 * `since`, each as new revisions made by the operator, so that the undo itself can be undone.
 * Posts created since are left alone (rollback deals with one editor's new posts).
 */
export class UndoChangesSince {
  constructor(
    private readonly store: NewsStore,
    private readonly news: NewsRepository,
  ) {}

  async execute(input: UndoChangesInput | Date): Promise<Result<readonly UndoStep[]>> {
    const {
      since,
      until,
      editor,
      dryRun = false,
    } = input instanceof Date ? { since: input } : input
    return attempt(async () => {
      const window = {
        since: since.toISOString(),
        ...(until === undefined ? {} : { until: until.toISOString() }),
        ...(editor === undefined ? {} : { editor }),
      }
      const ids = await this.store.changedSince(window.since, {
        until: window.until,
        editor: window.editor,
      })
      const steps: UndoStep[] = []
      for (const id of [...ids].sort()) {
        const history = await historyBack(this.news, id, (oldest) => oldest.at < window.since)
        const [latest] = history
        if (latest === undefined) continue
        steps.push(...(await carryOut(this.news, id, latest, planRestore(history, window), dryRun)))
      }
      return steps
    })
  }
}
