import type { Editor } from '@/domain/editor'
import type { ClientBlock, OperatorAction, PostProtection } from '@/domain/moderation.entity'

/** What hiding a revision found: done, the post's newest version (refused), or no such version. */
export type HideOutcome = 'hidden' | 'newest' | 'missing'

/**
 * The operator's tools' storage, shared by every server on the database: blocks, protected
 * posts, hidden revisions, purges and the operator log. Rejects with a DomainError
 * (Unavailable) when the database cannot answer.
 */
export interface ModerationStore {
  addBlock(block: ClientBlock): Promise<void>
  /** Lifts every block whose id or target is `target`; how many. */
  removeBlocks(target: string): Promise<number>
  /** The blocks that hold at `now`, newest first. */
  activeBlocks(now: Date): Promise<readonly ClientBlock[]>
  /** The block that holds at `now` for a client: by its pseudonym, or by a range its address is in. */
  blockOn(editor: Editor, address: string | undefined, now: Date): Promise<ClientBlock | undefined>
  /** Protects a post (again, with the new reason, if it was); false when there is no such post. */
  protect(protection: PostProtection): Promise<boolean>
  /** False when the post was not protected. */
  unprotect(newsId: string): Promise<boolean>
  protection(newsId: string): Promise<PostProtection | undefined>
  /** Erases a revision's title, body and author, keeping its number, action, time and editor. */
  hideRevision(newsId: string, revision: number, at: string): Promise<HideOutcome>
  /**
   * Removes a post for good with its history, keys, protection and logged changes; logs one
   * `deleted` change so that live readers drop it, and raises the site's version so that every
   * cache does. False when there is no such post.
   */
  purgePost(newsId: string, at: string): Promise<boolean>
  record(action: OperatorAction): Promise<void>
  /** The operator log, oldest first. */
  actions(): Promise<readonly OperatorAction[]>
}
