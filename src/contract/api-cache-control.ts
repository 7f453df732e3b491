/**
 * Cache-Control for the API. Lists and posts may be kept by a CDN (and the browser) for a few
 * seconds, then served stale for a while as it revalidates in the background with If-None-Match;
 * everything else under /api (writes, trash, history, settings, health, problems) is never kept.
 * docs/operations.md says what this means for a CDN in front.
 */
export const API_CACHE_CONTROL = {
  read: 'public, max-age=5, stale-while-revalidate=60',
  none: 'no-store',
} as const
