import {
  Boolean as BooleanType,
  Enum,
  Integer,
  Object as ObjectType,
  Optional,
  String as StringType,
  type Static,
} from 'typebox'
import { NEWS_CHANGE_KINDS, type NewsChange, type RecentChange } from '@/domain/news-change.entity'
import { NEWS_ID_PATTERN } from '@/domain/news-id'
import { EditorSchema, type Assert, type SameType } from '@/contract/news.wire-schemas'

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

/** An entry of `GET /api/changes`: a change, its editor and the post's title at that revision. */
export const RecentChangeSchema = ObjectType({
  ...NewsChangeSchema.properties,
  editor: EditorSchema,
  title: StringType({
    description: 'The post’s title at that revision; empty when the operator hid it.',
  }),
  hidden: Optional(
    BooleanType({
      description:
        'Present (true) when the operator hid the revision: its title is empty. The change’s ' +
        'time, kind and editor stay.',
    }),
  ),
})

// The domain's types stay the source of truth: the wire schemas must describe exactly them.
export type _WireChangesMatchTheDomain = [
  Assert<SameType<Readonly<Static<typeof NewsChangeSchema>>, NewsChange>>,
  Assert<SameType<Readonly<Static<typeof RecentChangeSchema>>, RecentChange>>,
]
