import { LOCK_PREFIX } from '@/ui/shared/browser-tab'

/**
 * A fresh tab's offer of a draft a closed tab left (see DraftStorage.adopt). It loads on its
 * own, once a form opens in a tab with no draft of its own: the first visit's bundle holds
 * none of it.
 */

/** The ids of the tabs open now (each holds a Web Lock); undefined where the browser cannot tell. */
async function liveTabs(): Promise<ReadonlySet<string> | undefined> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  if (locks === undefined) return undefined
  const { held = [] } = await locks.query()
  const names = held.flatMap(({ name }) => (name?.startsWith(LOCK_PREFIX) ? [name] : []))
  return new Set(names.map((name) => name.slice(LOCK_PREFIX.length)))
}

/**
 * Moves the newest draft of `key` that a closed tab left to this tab's key (`own`), and gives
 * its text; nothing when this tab has one, or where the browser cannot tell which tabs are open.
 * One tab at a time adopts, so that two fresh tabs never take the same draft.
 */
export async function adoptDraft(
  store: Storage,
  key: string,
  own: string,
): Promise<string | undefined> {
  const live = await liveTabs()
  if (live === undefined) return undefined
  const adopt = () => {
    if (store.getItem(own) !== null) return undefined
    const newest = orphans(store, key, live).sort((a, b) => b.savedAt - a.savedAt)[0]
    if (newest === undefined) return undefined
    store.setItem(own, newest.text)
    store.removeItem(newest.key)
    return newest.text
  }
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  return locks === undefined ? adopt() : locks.request('newswire.draft-adoption', adopt)
}

/**
 * The drafts of `key` kept for tabs that are not open now, and the one kept under `key` itself
 * before each tab kept its own.
 */
function orphans(store: Storage, key: string, live: ReadonlySet<string>) {
  const prefix = `${key}#`
  const found: { key: string; text: string; savedAt: number }[] = []
  for (let index = 0; index < store.length; index += 1) {
    const name = store.key(index)
    if (name === null) continue
    const closed = name.startsWith(prefix) && !live.has(name.slice(prefix.length))
    if (!closed && name !== key) continue
    const text = store.getItem(name)
    if (text !== null) found.push({ key: name, text, savedAt: savedAtOf(text) })
  }
  return found
}

function savedAtOf(text: string): number {
  try {
    const { savedAt } = JSON.parse(text) as { savedAt?: unknown }
    return typeof savedAt === 'number' ? savedAt : 0
  } catch {
    return 0
  }
}
