import type { Editor } from '@/domain/editor'

/**
 * A block of a client's writes: by its pseudonym (`editor`; an address is blocked by its
 * pseudonym, so that no address is kept), or by a range of addresses in CIDR form (`range`).
 * Reads still work. It lasts until `expiresAt`, or until it is lifted when that is null.
 */
export interface ClientBlock {
  readonly id: string
  readonly kind: 'editor' | 'range'
  /** The pseudonym, or the range (`203.0.113.0/24`, `2001:db8::/48`). */
  readonly target: string
  readonly reason: string
  readonly createdAt: string
  readonly expiresAt: string | null
}

/** A post only the operator may change. */
export interface PostProtection {
  readonly newsId: string
  readonly reason: string
  readonly createdAt: string
}

/** What the operator's commands record of themselves. */
export type OperatorActionName =
  'rollback' | 'restore' | 'block' | 'unblock' | 'protect' | 'unprotect' | 'purge' | 'redact'

/** One thing the operator did, as the operator log keeps it for good. */
export interface OperatorAction {
  readonly at: string
  /** The operator's account on the machine the command ran on. */
  readonly operator: string
  readonly action: OperatorActionName
  /** What it was done to: a post's id, an editor, a range, a block's id. */
  readonly target: string
  readonly reason: string
  /** What it did, in a line: e.g. "3 posts reverted, 1 trashed". */
  readonly detail: string
}

/** The editor a block by pseudonym names, if it is one. */
export function blockedEditor(block: ClientBlock): Editor | undefined {
  return block.kind === 'editor' ? block.target : undefined
}

/** What the history and the recent changes show for the text of a revision the operator hid. */
export const HIDDEN_REVISION_TEXT = 'hidden by the operator'
