import type { FocusEvent, KeyboardEvent, RefObject } from 'react'

/**
 * The focus of the news grid, a WAI-ARIA feed. Its DOM is column by column (react-masonry-css),
 * so Tab would follow the columns: instead one card at a time is a Tab stop (a roving tabindex),
 * and keys move the focus from card to card in the list's order. What the keys do
 * (feed-keys.ts) loads once the page runs, after the first paint.
 */

/** The keys the feed answers; what each does is in feed-keys.ts. */
const FEED_KEYS = new Set([
  'ArrowDown',
  'ArrowRight',
  'PageDown',
  'ArrowUp',
  'ArrowLeft',
  'PageUp',
  'Home',
  'End',
  'Enter',
])

const loadKeys = () => import('@/ui/features/news-list/feed-keys')

/** Loads what the keys do ahead of the first key, once the page runs. */
export function preloadFeedKeys(): void {
  void loadKeys()
}

/** The card a keyboard or focus event happened on, itself and not something inside it. */
function cardOf(target: EventTarget): HTMLElement | undefined {
  return target instanceof HTMLElement && target.tagName === 'ARTICLE' ? target : undefined
}

/** Moves the focus to a card, and scrolls it all into view (where the DOM can: jsdom cannot). */
export function focusCard(card: HTMLElement): void {
  card.focus()
  if (typeof card.scrollIntoView === 'function') card.scrollIntoView({ block: 'nearest' })
}

/**
 * Whether a card should take the focus back as it mounts: the card that had it was removed
 * with it (react-masonry-css moves a card to another column as a new element when the number
 * of columns changes, or posts come in above it), and nothing else has it since.
 */
export function focusWasLost(focused: RefObject<HTMLElement | null>): boolean {
  const card = focused.current
  const now = document.activeElement
  return card !== null && !card.isConnected && (now === null || now === document.body)
}

/**
 * The feed's handlers: a card that gets the focus (by key, click or script) becomes the Tab
 * stop (`onActive` with its post's id), and `focused` holds it while it has the focus; the
 * arrows, Page Up/Down and Home/End move between cards; Enter follows the card's Read More link.
 */
export function feedHandlers(
  onActive: (postId: string) => void,
  focused: RefObject<HTMLElement | null>,
) {
  return {
    onFocus(event: FocusEvent<HTMLElement>) {
      const card = cardOf(event.target)
      const postId = card?.dataset.postId
      if (card === undefined || postId === undefined) return
      focused.current = card
      onActive(postId)
    },
    onBlur(event: FocusEvent<HTMLElement>) {
      // A card removed from the page keeps its place in `focused`: the next one takes over.
      if (event.target === focused.current && event.target.isConnected) focused.current = null
    },
    onKeyDown(event: KeyboardEvent<HTMLElement>) {
      const card = cardOf(event.target)
      if (card === undefined || event.altKey || event.ctrlKey || event.metaKey) return
      if (event.shiftKey || !FEED_KEYS.has(event.key)) return
      // Decided now, while the event is live; done once the keys' code is there.
      event.preventDefault()
      const { key, currentTarget: feed } = event
      void loadKeys().then(({ pressKey }) => pressKey(feed, card, key))
    },
  }
}
