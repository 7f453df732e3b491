import { thisPage, type Draft } from '@/ui/shared/draft-storage'
import { DRAFT_TEXTS } from '@/ui/shared/form-texts'

/** What to call a draft found in storage, after where it came from. */
export function restoredDraftText(draft: Draft<unknown>): string {
  if (draft.adopted === true) return DRAFT_TEXTS.adopted
  return draft.page === thisPage ? DRAFT_TEXTS.restoredThisVisit : DRAFT_TEXTS.restored
}

/**
 * Says that the form holds the visitor's unsent text, in words that fit where it came from,
 * with the button that throws it away.
 */
export function DraftNotice({
  draft,
  message,
  onDiscard,
}: {
  readonly draft: Draft<unknown>
  /** Words of the form's own, where it knows more of what happened. */
  readonly message?: string
  readonly onDiscard: () => void
}) {
  return (
    <div className="draft-notice" role="status">
      <p>{message ?? restoredDraftText(draft)}</p>
      <button type="button" className="button" onClick={onDiscard}>
        {DRAFT_TEXTS.discard}
      </button>
    </div>
  )
}
