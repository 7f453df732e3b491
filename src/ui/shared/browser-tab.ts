/**
 * Which tab of the browser this page is, so that each tab keeps its drafts under keys of its
 * own: one tab's save or typing never removes or overwrites another's. The id lives in the
 * tab's session storage, so a reload of the tab finds its drafts again. A tab holds a Web Lock
 * named after its id for as long as it is open, which tells the other tabs that it is live.
 */
export interface BrowserTab {
  /** This tab's id. */
  readonly id: () => string
  /** The ids of the tabs open now, this one included; undefined where the browser cannot tell. */
  readonly liveTabs: () => Promise<ReadonlySet<string> | undefined>
  /** Runs `work` while no other tab of the browser runs work under the same `name`. */
  readonly exclusive: <T>(name: string, work: () => Promise<T>) => Promise<T>
}

const TAB_KEY = 'newswire.tab'
const LOCK_PREFIX = 'newswire.tab.'

function newTabId(): string {
  return globalThis.crypto.randomUUID().slice(0, 8)
}

function locks(): LockManager | undefined {
  return (globalThis.navigator as Navigator | undefined)?.locks
}

function readKept(session: () => Storage | undefined): string | null {
  try {
    return session()?.getItem(TAB_KEY) ?? null
  } catch {
    return null
  }
}

/** This tab, as the browser knows it; made on first use, so that the server never needs it. */
export function browserTab(session: () => Storage | undefined = () => globalThis.sessionStorage) {
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
    void locks()?.request(`${LOCK_PREFIX}${value}`, { ifAvailable: true }, (lock) => {
      if (lock !== null) return new Promise<never>(() => undefined)
      id = newTabId()
      remember(id)
      hold(id)
      return undefined
    })
  }
  const tab: BrowserTab = {
    id: () => {
      if (id !== undefined) return id
      const kept = readKept(session)
      id = kept ?? newTabId()
      if (kept === null) remember(id)
      hold(id)
      return id
    },
    liveTabs: async () => {
      const manager = locks()
      if (manager === undefined) return undefined
      tab.id()
      const { held = [] } = await manager.query()
      const names = held.flatMap(({ name }) => (name?.startsWith(LOCK_PREFIX) ? [name] : []))
      return new Set(names.map((name) => name.slice(LOCK_PREFIX.length)))
    },
    exclusive: (name, work) => {
      const manager = locks()
      return manager === undefined ? work() : manager.request(name, work)
    },
  }
  return tab
}
