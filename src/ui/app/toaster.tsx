import { createContext, lazy, Suspense, useContext, useSyncExternalStore } from 'react'
import type { ToastAction, ToastIntent, ToastParams } from '@/ui/shared/machine-effects'

// react-toastify loads with the first toast, not with the page: most visits to '/' show none.
const loadToastify = () => import('react-toastify/unstyled')

/** A toast with a button stays longer, so that there is time to reach the button. */
const AUTO_CLOSE_MS = 5000
const AUTO_CLOSE_WITH_ACTION_MS = 10_000

/** One app's toasts: what it asked to show, and how it performs a toast's button. */
export interface Toaster {
  /** Shows a toast; the same message twice at once shows once. */
  readonly show: (params: ToastParams) => void
  /** Whether any toast was asked for yet: the container loads with the first. */
  readonly requested: () => boolean
  readonly subscribe: (listener: () => void) => () => void
}

/** Makes an app's toaster; `perform` does what a toast's button asks (see ToastIntent). */
export function createToaster(perform: (intent: ToastIntent) => void): Toaster {
  let requested = false
  const listeners = new Set<() => void>()
  return {
    show: ({ kind, message, action }) => {
      if (!requested) {
        requested = true
        for (const listener of listeners) listener()
      }
      void loadToastify().then(({ toast }) => {
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
      })
    },
    requested: () => requested,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
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

export const ToasterContext = createContext<Toaster | null>(null)

const ToastContainer = lazy(async () => {
  const [{ ToastContainer: Container }] = await Promise.all([
    loadToastify(),
    import('react-toastify/ReactToastify.css'),
  ])
  return {
    default: () => (
      <Container
        position="top-right"
        theme="dark"
        autoClose={AUTO_CLOSE_MS}
        closeButton
        pauseOnHover
        draggable
      />
    ),
  }
})

const never = () => () => undefined

/** The toasts' place, top-right on every page, filled in once a toast is asked for. */
export function Toasts() {
  const toaster = useContext(ToasterContext)
  const show = useSyncExternalStore(
    toaster?.subscribe ?? never,
    () => toaster?.requested() ?? false,
  )
  return show ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null
}
