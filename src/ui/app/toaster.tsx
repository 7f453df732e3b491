import { createContext, lazy, Suspense, useContext, useSyncExternalStore } from 'react'
import type { ToastIntent, ToastParams } from '@/ui/shared/machine-effects'

// The toasts' code and react-toastify load with the first toast, not with the page.
const loadView = () => import('@/ui/app/toast-view')

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
    show: (params) => {
      if (!requested) {
        requested = true
        for (const listener of listeners) listener()
      }
      void loadView().then(({ showToast }) => showToast(params, perform))
    },
    requested: () => requested,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

export const ToasterContext = createContext<Toaster | null>(null)

const ToastsView = lazy(async () => ({ default: (await loadView()).ToastsView }))

const never = () => () => undefined

/**
 * The toasts' place, top-right on every page (at the bottom on phones), filled in once a toast
 * is asked for.
 */
export function Toasts() {
  const toaster = useContext(ToasterContext)
  const show = useSyncExternalStore(
    toaster?.subscribe ?? never,
    () => toaster?.requested() ?? false,
    // On the server no toast was ever asked for.
    () => false,
  )
  return show ? (
    <Suspense fallback={null}>
      <ToastsView />
    </Suspense>
  ) : null
}
