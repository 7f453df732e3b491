import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsItem } from '@/domain/news-item.entity'

/** What the live stream last said of one post. */
export interface LatestChange {
  /** The post's newest revision the stream told of. */
  readonly revision: number
  /** Whether that revision moved the post to the trash. */
  readonly deleted: boolean
  /** The newest revision that changed the post's text (its creation, an edit, a version restored). */
  readonly edited: number
}

/** A post the store loads because the stream named it. */
export interface LiveFetch {
  readonly id: string
  /** New to the list (created or restored elsewhere): it waits behind 'N new posts'. */
  readonly arrival: boolean
}

/** How a post on screen stands against what the stream told of it. */
export type LiveStatus = 'current' | 'edited' | 'deleted'

/** Notes `change` as the post's latest, unless a newer one was already heard. */
export function recordChange(
  latest: Readonly<Record<string, LatestChange>>,
  change: NewsChange,
): Readonly<Record<string, LatestChange>> {
  const before = latest[change.id]
  if (before !== undefined && before.revision >= change.revision) return latest
  const rewrites = change.kind === 'created' || change.kind === 'edited'
  return {
    ...latest,
    [change.id]: {
      revision: change.revision,
      deleted: change.kind === 'deleted',
      edited: rewrites ? change.revision : (before?.edited ?? 0),
    },
  }
}

/**
 * Whether `shown` (a revision of a post on screen) is still the post's newest: `deleted` or
 * `edited` when the stream told of a newer revision that did so. A post restored after a delete
 * is current again (a restore brings back the text the post had). The visitor's own change in
 * flight (`ownChange`) is no news: its answer updates the screen.
 */
export function liveStatusOf(
  latest: LatestChange | undefined,
  shown: NewsItem,
  ownChange = false,
): LiveStatus {
  if (latest === undefined || ownChange) return 'current'
  if (latest.deleted) return latest.revision > shown.revision ? 'deleted' : 'current'
  return latest.edited > shown.revision ? 'edited' : 'current'
}

/**
 * Queues a load of `fetch.id`, unless one is queued and not started yet (the first of the
 * queue is the one loading: a change heard meanwhile needs a load of its own).
 */
export function queueFetch(queue: readonly LiveFetch[], fetch: LiveFetch): readonly LiveFetch[] {
  const waiting = queue.slice(1).some((queued) => queued.id === fetch.id)
  return waiting ? queue : [...queue, fetch]
}

/** Replaces the item with the same id by `item` where `item` is a newer revision. */
export function replaceIfNewer(list: readonly NewsItem[], item: NewsItem): readonly NewsItem[] {
  return list.some((each) => each._id === item._id && item.revision > each.revision)
    ? list.map((each) => (each._id === item._id ? item : each))
    : list
}

/** Leaves out of `arrivals` the posts that `list` holds. */
export function notListed(
  arrivals: readonly NewsItem[],
  list: readonly NewsItem[],
): readonly NewsItem[] {
  if (arrivals.length === 0) return arrivals
  const listed = new Set(list.map((item) => item._id))
  return arrivals.filter((item) => !listed.has(item._id))
}
