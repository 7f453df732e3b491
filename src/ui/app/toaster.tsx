import { lazy, Suspense, useSyncExternalStore } from 'react'
import type { ToastParams } from '@/ui/shared/machine-effects'

// react-toastify loads with the first toast, not with the page: most visits to '/' show none.
const loadToastify = () => import('react-toastify/unstyled')

let requested = false
const listeners = new Set<() => void>()

/** Shows a toast; the same message twice at once shows once. */
export function showToast({ kind, message }: ToastParams): void {
  if (!requested) {
    requested = true
    for (const listener of listeners) listener()
  }
  void loadToastify().then(({ toast }) => {
    toast[kind](message, { toastId: `${kind}:${message}` })
  })
}

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
        autoClose={5000}
        closeButton
        pauseOnHover
        draggable
      />
    ),
  }
})

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

/** The toasts' place, top-right on every page, filled in once a toast is asked for. */
export function Toasts() {
  const show = useSyncExternalStore(subscribe, () => requested)
  return show ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null
}
