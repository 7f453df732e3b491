/** Says that the form holds a restored draft, with the button that throws it away. */
export function DraftNotice({ onDiscard }: { readonly onDiscard: () => void }) {
  return (
    <div className="draft-notice" role="status">
      <p>Your unsent text from an earlier visit is back in the form.</p>
      <button type="button" className="button" onClick={onDiscard}>
        Discard draft
      </button>
    </div>
  )
}
