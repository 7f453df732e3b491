import { Type, type Static } from 'typebox'
import { NewsItemSchema, TrashedNewsItemSchema } from '@/contract/news.wire-schemas'

export { PROBLEM_TYPES } from '@/contract/problem-types'

/**
 * An RFC 9457 problem body. `errors` maps a field to the same message the form shows.
 */
export const ProblemSchema = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.String())),
})

/** The problem of a 412: `current` is the post as it is stored now, so that a client can show what changed. */
export const StaleProblemSchema = Type.Object({
  ...ProblemSchema.properties,
  current: NewsItemSchema,
})

/**
 * The problem of a 404 for a post that is in the trash: `trashed` is the post, which
 * `POST /api/news/:id/restore` brings back.
 */
export const TrashedProblemSchema = Type.Object({
  ...ProblemSchema.properties,
  trashed: TrashedNewsItemSchema,
})

/**
 * The problem of a 403 for a blocked client: the operator's `reason` (may be empty) and when the
 * block ends (`until`, ISO 8601 in UTC), null while it lasts until it is lifted.
 */
export const BlockedProblemSchema = Type.Object({
  ...ProblemSchema.properties,
  reason: Type.String(),
  until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})

export type Problem = Readonly<
  | Static<typeof ProblemSchema>
  | Static<typeof StaleProblemSchema>
  | Static<typeof TrashedProblemSchema>
  | Static<typeof BlockedProblemSchema>
>

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8'

export const problemResponse = (description: string) =>
  ({
    description,
    content: { 'application/problem+json': { schema: ProblemSchema } },
  }) as const
