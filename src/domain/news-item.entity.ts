/**
 * A published news post. `_id` is opaque and URL-safe; the instants are ISO 8601 in UTC.
 * `revision` counts the post's recorded versions (1 when created) and names the newest.
 */
export interface NewsItem extends NewsDraft {
  readonly _id: string
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

/** The fields of a post a visitor writes, in the form's order. */
export const NEWS_FIELDS = ['title', 'author', 'body'] as const

export type NewsField = (typeof NEWS_FIELDS)[number]

/** What a visitor writes: the fields of a post the client may set. */
export type NewsDraft = Readonly<Record<NewsField, string>>

/** An edit may change any of the draft's fields. */
export type NewsChanges = Partial<NewsDraft>
