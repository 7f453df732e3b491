import type { FocusEvent, KeyboardEvent, RefObject } from 'react'

/**
 * The keyboard of the news grid, a WAI-ARIA feed. Its DOM is column by column
 * (react-masonry-css), so Tab would follow the columns: instead one card at a time is a Tab stop
 * (a roving tabindex), and keys move the focus from card to card in the list's order.
 */

/** The id of a post's card, which the feed's aria-owns lists. */
export function cardId(postId: string): string {
  return `news-${postId}-card`
}

/** Where each key takes the focus, from the card at `index` of `count`. */
const MOVES: Readonly<Record<string, (index: number, count: number) => number>> = {
  ArrowDown: (index) => index + 1,
  ArrowRight: (index) => index + 1,
  PageDown: (index) => index + 1,
  ArrowUp: (index) => index - 1,
  ArrowLeft: (index) => index - 1,
  PageUp: (index) => index - 1,
  Home: () => 0,
  End: (_, count) => count - 1,
}

/**
 * The index of the card a key takes the focus to, from the card at `index` of `count`; the
 * same index at either end; undefined for a key that moves nothing.
 */
export function cardAfterKey(key: string, index: number, count: number): number | undefined {
  const move = MOVES[key]
  if (move === undefined) return undefined
  return Math.min(Math.max(move(index, count), 0), count - 1)
}

/** The cards the keys go through, in the list's order: those the feed owns, but deleted ones. */
function usableCards(feed: HTMLElement): HTMLElement[] {
  const ids = (feed.getAttribute('aria-owns') ?? '').split(' ')
  return ids
    .map((id) => document.getElementById(id))
    .filter((card): card is HTMLElement => card !== null && card.closest('[inert]') === null)
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
      if (event.shiftKey) return
      if (event.key === 'Enter') {
        event.preventDefault()
        card.querySelector<HTMLAnchorElement>('a[href]')?.click()
        return
      }
      const cards = usableCards(event.currentTarget)
      const next = cardAfterKey(event.key, cards.indexOf(card), cards.length)
      if (next === undefined) return
      event.preventDefault()
      const target = cards[next]
      if (target !== undefined && target !== card) focusCard(target)
    },
  }
}
