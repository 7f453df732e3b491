/** Moving the focus to a card of the news feed, for both its focus (feed-focus.ts) and its keys (feed-keys.ts). */

/** Moves the focus to a card, and scrolls it all into view (where the DOM can: jsdom cannot). */
export function focusCard(card: HTMLElement): void {
  card.focus()
  if (typeof card.scrollIntoView === 'function') card.scrollIntoView({ block: 'nearest' })
}
