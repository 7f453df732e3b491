/** A published news post. `_id` is opaque and URL-safe; `createdAt` is ISO 8601 in UTC. */
export interface NewsItem {
  readonly _id: string
  readonly title: string
  readonly body: string
  readonly author: string
  readonly createdAt: string
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
