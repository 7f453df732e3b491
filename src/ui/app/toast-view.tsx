import { useEffect, useRef } from 'react'
import { toast, ToastContainer } from 'react-toastify/unstyled'
import 'react-toastify/ReactToastify.css'
import type { ToastAction, ToastIntent, ToastParams } from '@/ui/shared/machine-effects'
import { HOLDS_FOCUS } from '@/ui/shared/use-focus-heading'

/*
 * What shows the toasts, with react-toastify: a chunk of its own that loads with the first
 * toast, not with the page (most visits to '/' show none). toaster.tsx decides when.
 */

const AUTO_CLOSE_MS = 5000

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
    // A toast with a button (Undo, Review) has no time limit (WCAG 2.2.1): it stays until the
    // visitor presses its button or closes it, however long reaching it takes.
    autoClose: action === undefined ? AUTO_CLOSE_MS : false,
  })
}

/**
 * The message and its button; the button names what it does to the message it follows.
 *
 * It tells the outcome of what the visitor just did (Delete, a save), which may also have
 * changed the page: when the focus is where that left it (nowhere, or on the new page's main
 * heading, which navigation focuses), it moves to the message, so that a screen reader reads
 * it and the button is the next Tab stop; a heading that shows after leaves it there
 * (HOLDS_FOCUS). Focus the visitor put elsewhere stays there.
 */
function ToastWithAction({
  message,
  action,
  onAction,
}: {
  readonly message: string
  readonly action: ToastAction
  readonly onAction: () => void
}) {
  const text = useRef<HTMLSpanElement>(null)
  useEffect(() => {
    const focused = document.activeElement
    if (focused === null || focused === document.body || focused.matches('main h1')) {
      text.current?.focus()
    }
  }, [])
  return (
    <div className="toast-with-action">
      <span className="toast-message" tabIndex={-1} ref={text} {...{ [HOLDS_FOCUS]: '' }}>
        {message}
      </span>
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
