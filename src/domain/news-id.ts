/** Ids are opaque, URL-safe and short; anything else cannot name a post. */
export const NEWS_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

export function isNewsId(value: string): boolean {
  return NEWS_ID_PATTERN.test(value)
}
