import { randomBytes } from 'node:crypto'
import type { HideOutcome, ModerationStore } from '@/application/ports/moderation.port'
import type { UndoStep } from '@/application/undo-steps'
import { notFound } from '@/domain/domain-error'
import type {
  ClientBlock,
  OperatorAction,
  OperatorActionName,
  PostProtection,
} from '@/domain/moderation.entity'
import { attempt, type Result } from '@/domain/result'

export interface OperatorToolsOptions {
  /** Who runs the commands: the account name recorded in the operator log. */
  readonly operator: string
  readonly now?: () => Date
}

/** What a block names: a client's pseudonym, or a range of addresses. */
export interface BlockTarget {
  readonly kind: ClientBlock['kind']
  readonly target: string
}

/**
 * The operator's moderation tools (`npm run news -- block | unblock | blocks | protect |
 * unprotect | purge | redact | log`), each change recorded in the operator log in the database.
 */
export class OperatorTools {
  private readonly now: () => Date

  constructor(
    private readonly store: ModerationStore,
    private readonly options: OperatorToolsOptions,
  ) {
    this.now = options.now ?? (() => new Date())
  }

  /** Blocks a client's writes, for `forMs` or until lifted. */
  block(
    { kind, target }: BlockTarget,
    { forMs, reason = '' }: { readonly forMs?: number; readonly reason?: string },
  ): Promise<Result<ClientBlock>> {
    return attempt(async () => {
      const now = this.now()
      const block: ClientBlock = {
        id: randomBytes(6).toString('hex'),
        kind,
        target,
        reason,
        createdAt: now.toISOString(),
        expiresAt: forMs === undefined ? null : new Date(now.getTime() + forMs).toISOString(),
      }
      await this.store.addBlock(block)
      await this.record('block', target, reason, `until ${block.expiresAt ?? 'lifted'}`)
      return block
    })
  }

  /** Lifts the blocks of an editor or range, or the block with this id; how many. */
  unblock(target: string): Promise<Result<number>> {
    return attempt(async () => {
      const lifted = await this.store.removeBlocks(target)
      if (lifted === 0) throw notFound()
      await this.record('unblock', target, '', `${lifted} block(s) lifted`)
      return lifted
    })
  }

  blocks(): Promise<Result<readonly ClientBlock[]>> {
    return attempt(() => this.store.activeBlocks(this.now()))
  }

  protect(newsId: string, reason = ''): Promise<Result<PostProtection>> {
    return attempt(async () => {
      const protection = { newsId, reason, createdAt: this.now().toISOString() }
      if (!(await this.store.protect(protection))) throw notFound()
      await this.record('protect', newsId, reason, 'protected')
      return protection
    })
  }

  unprotect(newsId: string): Promise<Result<void>> {
    return attempt(async () => {
      if (!(await this.store.unprotect(newsId))) throw notFound()
      await this.record('unprotect', newsId, '', 'no longer protected')
    })
  }

  /** Removes a post for good, with its history. */
  purge(newsId: string, reason = ''): Promise<Result<void>> {
    return attempt(async () => {
      if (!(await this.store.purgePost(newsId, this.now().toISOString()))) {
        throw notFound()
      }
      await this.record('purge', newsId, reason, 'removed with its history')
    })
  }

  /** Hides one revision's title, body and author; refused for a post's newest version. */
  redact(newsId: string, revision: number, reason = ''): Promise<Result<HideOutcome>> {
    return attempt(async () => {
      const outcome = await this.store.hideRevision(newsId, revision, this.now().toISOString())
      if (outcome === 'hidden') {
        await this.record('redact', `${newsId} revision ${revision}`, reason, 'hidden')
      }
      return outcome
    })
  }

  /** Records an undo (rollback or restore) that changed something. */
  recordUndo(
    action: 'rollback' | 'restore',
    target: string,
    steps: readonly UndoStep[],
  ): Promise<Result<void>> {
    return attempt(async () => {
      const done = steps.filter((step) => step.kind !== 'skipped')
      if (done.length === 0) return
      const posts = new Set(done.map((step) => step.id)).size
      const skipped = steps.length - done.length
      await this.record(
        action,
        target,
        '',
        `${done.length} step(s) on ${posts} post(s), ${skipped} skipped`,
      )
    })
  }

  log(): Promise<Result<readonly OperatorAction[]>> {
    return attempt(() => this.store.actions())
  }

  private record(
    action: OperatorActionName,
    target: string,
    reason: string,
    detail: string,
  ): Promise<void> {
    const at = this.now().toISOString()
    return this.store.record({
      at,
      operator: this.options.operator,
      action,
      target,
      reason,
      detail,
    })
  }
}
