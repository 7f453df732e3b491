/** A card of the news feed, as both the feed's focus (feed-focus.ts) and its keys (feed-keys.ts) know it. */

/** The id of a post's card, which the feed's aria-owns lists. */
export function cardId(postId: string): string {
  return `news-${postId}-card`
}

/** Moves the focus to a card, and scrolls it all into view (where the DOM can: jsdom cannot). */
export function focusCard(card: HTMLElement): void {
  card.focus()
  if (typeof card.scrollIntoView === 'function') card.scrollIntoView({ block: 'nearest' })
}
