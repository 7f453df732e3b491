import { focusCard } from '@/ui/features/news-list/feed-card'

/** What the news grid's keys do (feed-focus.ts decides which keys it answers). */

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

/** Enter follows the card's Read More link; the others move the focus to another card. */
export function pressKey(feed: HTMLElement, card: HTMLElement, key: string): void {
  if (key === 'Enter') {
    card.querySelector<HTMLAnchorElement>('a[href]')?.click()
    return
  }
  const cards = usableCards(feed)
  const next = cardAfterKey(key, cards.indexOf(card), cards.length)
  const target = next === undefined ? undefined : cards[next]
  if (target !== undefined && target !== card) focusCard(target)
}
