/** What a screen shows when its data could not be loaded: the reason and a Retry button. */
export function LoadFailed({
  what,
  onRetry,
}: {
  readonly what: string
  readonly onRetry: () => void
}) {
  return (
    <div className="inline-error" role="alert">
      <p>{what} could not be loaded.</p>
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  )
}
