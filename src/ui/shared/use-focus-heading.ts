import { useEffect, useRef, type RefObject } from 'react'
import { useLocation } from 'react-router-dom'

/**
 * Marks what took the focus to tell the visitor the outcome of what they did (a toast with a
 * button): the new screen's heading leaves the focus there, even when it shows after.
 */
export const HOLDS_FOCUS = 'data-holds-focus'

/** A screen that never shows its heading (it failed quietly, or it redirects) is given up on. */
const WAIT_FOR_HEADING_MS = 10_000

/**
 * After a client-side navigation, moves the focus to the new screen's main heading (its h1), so
 * that a screen reader announces the page as it would after a full load. The first page load
 * keeps the browser's own focus. A screen whose heading comes with its data is waited for; if
 * the visitor moved the focus meanwhile, or a toast took it (HOLDS_FOCUS), it stays there.
 *
 * Returns the ref to put on the element that holds the screens (main).
 */
export function useFocusHeadingOnNavigation(): RefObject<HTMLElement | null> {
  const container = useRef<HTMLElement>(null)
  const { pathname } = useLocation()
  const shown = useRef(pathname)
  useEffect(() => {
    const root = container.current
    if (shown.current === pathname || root === null) return
    shown.current = pathname
    return focusHeadingWhenShown(root, document.activeElement)
  }, [pathname])
  return container
}

/** Focuses the h1 in `root` now or once it appears; returns how to stop waiting for it. */
function focusHeadingWhenShown(root: HTMLElement, focusedBefore: Element | null): () => void {
  const tryFocus = (): boolean => {
    const heading = root.querySelector<HTMLElement>('h1')
    if (heading === null) return false
    const focused = document.activeElement
    const leftThere = focused === null || focused === document.body || focused === focusedBefore
    if (leftThere && focused?.closest(`[${HOLDS_FOCUS}]`) == null) {
      // A heading is not a Tab stop; -1 lets it take the focus from script only.
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
      heading.focus()
    }
    return true
  }
  if (tryFocus()) return () => undefined
  const observer = new MutationObserver(() => {
    if (tryFocus()) stop()
  })
  const timer = setTimeout(() => stop(), WAIT_FOR_HEADING_MS)
  const stop = () => {
    observer.disconnect()
    clearTimeout(timer)
  }
  observer.observe(root, { childList: true, subtree: true })
  return stop
}
