import { toast, ToastContainer } from 'react-toastify/unstyled'
import 'react-toastify/ReactToastify.css'
import type { ToastAction, ToastIntent, ToastParams } from '@/ui/shared/machine-effects'

/*
 * What shows the toasts, with react-toastify: a chunk of its own that loads with the first
 * toast, not with the page (most visits to '/' show none). toaster.tsx decides when.
 */

/** A toast with a button stays longer, so that there is time to reach the button. */
const AUTO_CLOSE_MS = 5000
const AUTO_CLOSE_WITH_ACTION_MS = 10_000

/** Shows one toast; `perform` does what its button asks. The same message twice shows once. */
export function showToast(
  { kind, message, action }: ToastParams,
  perform: (intent: ToastIntent) => void,
): void {
  const content =
    action === undefined
      ? message
      : ({ closeToast }: { readonly closeToast: () => void }) => (
          <ToastWithAction
            message={message}
            action={action}
            onAction={() => {
              closeToast()
              perform(action.intent)
            }}
          />
        )
  toast[kind](content, {
    // The same message for another post (two deletes) is another toast, with its own Undo.
    toastId:
      action === undefined
        ? `${kind}:${message}`
        : `${kind}:${message}:${JSON.stringify(action.intent)}`,
    autoClose: action === undefined ? AUTO_CLOSE_MS : AUTO_CLOSE_WITH_ACTION_MS,
  })
}

/** The message and its button; the button names what it does to the message it follows. */
function ToastWithAction({
  message,
  action,
  onAction,
}: {
  readonly message: string
  readonly action: ToastAction
  readonly onAction: () => void
}) {
  return (
    <div className="toast-with-action">
      <span className="toast-message">{message}</span>
      <button type="button" className="toast-action" onClick={onAction}>
        {action.label}
      </button>
    </div>
  )
}

/** The toasts' place, top-right on every page. */
export function ToastsView() {
  return (
    <ToastContainer
      // app.css moves them to the bottom on phones, where top-right would cover the nav.
      className="site-toasts"
      position="top-right"
      theme="dark"
      autoClose={AUTO_CLOSE_MS}
      closeButton
      pauseOnHover
      draggable
    />
  )
}
