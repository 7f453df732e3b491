/**
 * A published news post. `_id` is opaque and URL-safe; the instants are ISO 8601 in UTC.
 * `revision` counts the post's recorded versions (1 when created) and names the newest.
 */
export interface NewsItem {
  readonly _id: string
  readonly title: string
  readonly body: string
  readonly author: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly revision: number
  /** Present when the operator protected the post: only the operator may change it. */
  readonly protected?: true
}

/** A post in the trash: restorable until it is purged. */
export interface TrashedNewsItem extends NewsItem {
  readonly deletedAt: string
}

/** What a visitor writes: the fields of a post the client may set. */
export interface NewsDraft {
  readonly title: string
  readonly body: string
  readonly author: string
}

export type NewsField = keyof NewsDraft

export const NEWS_FIELDS: readonly NewsField[] = ['title', 'author', 'body']

/** An edit may change any of the draft's fields. */
export type NewsChanges = Partial<NewsDraft>
