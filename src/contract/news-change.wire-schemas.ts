import { Enum, Integer, Object as ObjectType, String as StringType, type Static } from 'typebox'
import { NEWS_CHANGE_KINDS, type NewsChange } from '@/domain/news-change.entity'
import { NEWS_ID_PATTERN } from '@/domain/news-id'
import type { Assert, SameType } from '@/contract/news.wire-schemas'

/**
 * The `data` of the messages on `GET /api/events` (docs: the live stream), once: the browser's
 * EventSource adapter reads each message through these, and the server may describe its stream
 * with them. A position is a decimal integer that a JavaScript number holds exactly.
 */

const position = (description: string) =>
  Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description })

/** `event: change`: one change, numbered in commit order across every server. */
export const NewsChangeSchema = ObjectType({
  seq: position('The site’s version once this change committed; the message’s `id`.'),
  id: StringType({ pattern: NEWS_ID_PATTERN.source, description: 'The post’s id.' }),
  kind: Enum(NEWS_CHANGE_KINDS, { type: 'string' }),
  revision: Integer({ minimum: 1, description: 'The post’s revision that the change made.' }),
  at: StringType({ format: 'date-time', description: 'When the change was made. ISO 8601, UTC.' }),
})

/** `event: ready` and `event: reset`: where the stream stands (the site's current version). */
export const StreamPositionSchema = ObjectType({
  seq: position('The site’s current version; the message’s `id`.'),
})

// The domain's type stays the source of truth: the wire schema must describe exactly it.
export type _WireChangeMatchesTheDomain = Assert<
  SameType<Readonly<Static<typeof NewsChangeSchema>>, NewsChange>
>
