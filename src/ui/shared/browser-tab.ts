/**
 * Which tab of the browser this page is, so that each tab keeps its drafts under keys of its
 * own: one tab's save or typing never removes or overwrites another's. The id lives in the
 * tab's session storage, so a reload of the tab finds its drafts again. A tab holds a Web Lock
 * named after its id for as long as it is open, which tells the other tabs that it is live
 * (see draft-adoption.ts).
 */
export const LOCK_PREFIX = 'newswire.tab.'
const TAB_KEY = 'newswire.tab'

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
  /** Holds the tab's lock for its life; a duplicated tab, which copied the id, takes a new one. */
  const hold = (value: string) => {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks
    void locks?.request(`${LOCK_PREFIX}${value}`, { ifAvailable: true }, (lock) => {
      if (lock !== null) return new Promise<never>(() => undefined)
      id = newTabId()
      remember(id)
      hold(id)
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
