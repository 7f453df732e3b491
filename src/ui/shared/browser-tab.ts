/**
 * Which tab of the browser this page is, so that each tab keeps its drafts under keys of its
 * own: one tab's save or typing never removes or overwrites another's. The id lives in the
 * tab's session storage, so a reload of the tab finds its drafts again. A tab holds a Web Lock
 * named after its id for as long as it is open, which tells the other tabs that it is live
 * (see draft-adoption.ts).
 */
export const LOCK_PREFIX = 'newswire.tab.'
const TAB_KEY = 'newswire.tab'
/** How long a reloaded page waits for the page it replaces to let go of the tab's lock. */
const RELOAD_GRACE_MS = 2_000

function newTabId(): string {
  return globalThis.crypto.randomUUID().slice(0, 8)
}

function readKept(session: () => Storage | undefined): string | null {
  try {
    return session()?.getItem(TAB_KEY) ?? null
  } catch {
    return null
  }
}

/** This tab's id, made on first use, so that the server never needs one. */
export function browserTab(
  session: () => Storage | undefined = () => globalThis.sessionStorage,
): () => string {
  let id: string | undefined
  const remember = (value: string) => {
    try {
      session()?.setItem(TAB_KEY, value)
    } catch {
      // Without session storage the id lasts as long as the page.
    }
  }
  const forever = () => new Promise<never>(() => undefined)
  /**
   * Holds the tab's lock for its life. Held elsewhere, it is either the page this reload
   * replaces, about to let go, or the tab this one was duplicated from, which copied the id:
   * after a moment's wait, a duplicate takes an id of its own.
   */
  const hold = (value: string) => {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks
    const name = `${LOCK_PREFIX}${value}`
    void locks?.request(name, { ifAvailable: true }, (lock) => {
      if (lock !== null) return forever()
      locks.request(name, { signal: AbortSignal.timeout(RELOAD_GRACE_MS) }, forever).catch(() => {
        id = newTabId()
        remember(id)
        hold(id)
      })
      return undefined
    })
  }
  return () => {
    if (id !== undefined) return id
    const kept = readKept(session)
    id = kept ?? newTabId()
    if (kept === null) remember(id)
    hold(id)
    return id
  }
}
