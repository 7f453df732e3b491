import { DRAFT_TEXTS } from '@/ui/shared/form-texts'

/**
 * Says that the form holds the visitor's unsent text, in words that fit where it came from,
 * with the button that throws it away.
 */
export function DraftNotice({
  message = DRAFT_TEXTS.restored,
  onDiscard,
}: {
  readonly message?: string
  readonly onDiscard: () => void
}) {
  return (
    <div className="draft-notice" role="status">
      <p>{message}</p>
      <button type="button" className="button" onClick={onDiscard}>
        {DRAFT_TEXTS.discard}
      </button>
    </div>
  )
}
