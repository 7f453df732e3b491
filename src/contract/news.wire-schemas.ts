import {
  Enum,
  Boolean as BooleanType,
  Integer,
  Literal,
  Object as ObjectType,
  Optional,
  String as StringType,
  type Static,
} from 'typebox'
import { NEWS_ID_PATTERN } from '@/domain/news-id'
import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import { REVISION_ACTIONS, type NewsRevision } from '@/domain/news-revision.entity'

/**
 * The shapes the news API answers, once: the server's route schemas are built on them (and so
 * its serialiser and its OpenAPI document), and the browser's HTTP adapter checks answers
 * against them. Named builders, not the `Type` namespace, so that the browser bundle holds only
 * the builders used here.
 */

const instant = (description: string) =>
  StringType({ format: 'date-time', description: `${description} ISO 8601, UTC.` })

const revisionNumber = (description?: string) =>
  Integer(description === undefined ? { minimum: 1 } : { minimum: 1, description })

const ITEM_PROPERTIES = {
  _id: StringType({ pattern: NEWS_ID_PATTERN.source, description: 'Opaque and URL-safe.' }),
  title: StringType(),
  body: StringType(),
  author: StringType(),
  createdAt: instant('When the post was published.'),
  updatedAt: instant('When the post last changed (its newest revision).'),
  revision: revisionNumber(
    'The number of the post’s newest revision; its `ETag` is `"rev-N"` (`"rev-N-p"` while protected).',
  ),
  protected: Optional(
    Literal(true, {
      description:
        'Present while the operator protects the post: visitors’ edits, deletes and restores ' +
        'of it answer 403 (`/problems/protected`).',
    }),
  ),
}

export const NewsItemSchema = ObjectType(ITEM_PROPERTIES)

export const TrashedNewsItemSchema = ObjectType({
  ...ITEM_PROPERTIES,
  deletedAt: instant('When the post went to the trash.'),
})

/** Who made a change (domain/editor.ts). */
export const EditorSchema = StringType({
  description:
    'Who made the change: a short keyed-hash pseudonym of the client address, `operator` ' +
    'for the operator’s commands, `unknown` before changes were attributed.',
})

export const NewsRevisionSchema = ObjectType({
  revision: revisionNumber(),
  title: StringType(),
  body: StringType(),
  author: StringType(),
  action: Enum(REVISION_ACTIONS, { type: 'string' }),
  at: instant('When the change was made.'),
  editor: EditorSchema,
  restoredFrom: Optional(revisionNumber('For a restored version, the revision it brought back.')),
  hidden: Optional(
    BooleanType({
      description:
        'The operator hid this version: its title, body and author are empty; its number, ' +
        'action, time and editor stay.',
    }),
  ),
})

/** True when A and B are the same type, readonly modifiers included. */
export type SameType<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false

/** Fails to compile unless its argument is `true`. */
export type Assert<T extends true> = T

// The domain's types stay the source of truth: the wire schemas must describe exactly them.
export type _WireShapesMatchTheDomain = [
  Assert<SameType<Readonly<Static<typeof NewsItemSchema>>, NewsItem>>,
  Assert<SameType<Readonly<Static<typeof TrashedNewsItemSchema>>, TrashedNewsItem>>,
  Assert<SameType<Readonly<Static<typeof NewsRevisionSchema>>, NewsRevision>>,
]
