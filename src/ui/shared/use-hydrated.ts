import { useSyncExternalStore } from 'react'

const never = () => () => undefined

/**
 * Whether the app runs in this page yet: false on the server and while the browser hydrates a
 * server-rendered page, true ever after. A form's submit button waits for it: pressed before,
 * the browser would send the form itself, as a page load that drops what was typed.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  )
}
