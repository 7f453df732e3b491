import { lazy, type ComponentType } from 'react'

/**
 * A screen whose code failed to load: a redeploy removed the old chunk files, or the network
 * dropped. The route's error boundary tells it apart from a screen that failed to render.
 */
export class CodeLoadError extends Error {
  constructor(cause: unknown) {
    super('The code of this screen could not be loaded', { cause })
    this.name = 'CodeLoadError'
  }
}

// Remembered for the tab's life, so that an automatic reload happens once, never in a loop.
const RELOADED_KEY = 'newswire:reloaded-for-code'

/**
 * Whether a failed code load may reload the page by itself: once, while the browser is online
 * (offline, a reload would only show the browser's own error page). Records that it did.
 */
export function claimAutomaticReload(): boolean {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return false
  try {
    if (sessionStorage.getItem(RELOADED_KEY) !== null) return false
    sessionStorage.setItem(RELOADED_KEY, new Date().toISOString())
    return true
  } catch {
    // Without storage the reload could not be remembered, so it could loop: the visitor decides.
    return false
  }
}

/** Code loads again: a later stale deploy may reload once more. */
function forgetAutomaticReload(): void {
  try {
    sessionStorage.removeItem(RELOADED_KEY)
  } catch {
    // Nothing was remembered.
  }
}

/** A route's screen, loaded with its own chunk the first time it shows. */
export function lazyScreen(load: () => Promise<ComponentType>) {
  return lazy(async () => {
    let Screen: ComponentType
    try {
      Screen = await load()
    } catch (cause) {
      throw new CodeLoadError(cause)
    }
    forgetAutomaticReload()
    return { default: Screen }
  })
}
