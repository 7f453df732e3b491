import { paths } from '@/ui/shared/paths'

/*
 * One version on a post's history page, which shows what it changed (its diff). Beside paths.ts
 * rather than in it: only the history and the recent changes need it, and paths.ts loads with
 * the first visit.
 */

/** The element id of one version on the history page. */
export const versionId = (id: string, revision: number) => `version-${id}-${revision}`

/** One version, with its diff, on the newest page of the history (the newest 50 versions). */
export const versionPath = (id: string, revision: number) =>
  `${paths.history(id)}#${versionId(id, revision)}`
