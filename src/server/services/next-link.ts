/**
 * The `Link` to the following page, shaped alike for every paged list; `query` is what else
 * the page's URL carries (a search's `q=…&`, the recent changes' `editor=…&`), kept in front.
 */
export function nextLink(
  path: string,
  limit: number,
  next: string | undefined,
  query = '',
): string | undefined {
  if (next === undefined) return undefined
  return `<${path}?${query}limit=${limit}&cursor=${encodeURIComponent(next)}>; rel="next"`
}
