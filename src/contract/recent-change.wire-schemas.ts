import {
  Boolean as BooleanType,
  Object as ObjectType,
  Optional,
  String as StringType,
  type Static,
} from 'typebox'
import type { RecentChange } from '@/domain/news-change.entity'
import { NewsChangeSchema } from '@/contract/news-change.wire-schemas'
import { EditorSchema, type Assert, type SameType } from '@/contract/news.wire-schemas'

/*
 * The entries of `GET /api/changes`, which the browser's HTTP adapter reads through this. Apart
 * from the live stream's schemas, so that the stream's code does not load the revisions'.
 */

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

// The domain's type stays the source of truth: the wire schema must describe exactly it.
export type _WireRecentChangeMatchesTheDomain = Assert<
  SameType<Readonly<Static<typeof RecentChangeSchema>>, RecentChange>
>
