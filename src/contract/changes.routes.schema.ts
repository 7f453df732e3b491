import { Type } from 'typebox'
import { OPERATOR, PSEUDONYM_LENGTH, UNKNOWN_EDITOR } from '@/domain/editor'
import { CHANGE_LOG_RETENTION_DAYS } from '@/domain/rules/news-history.rules'
import { RecentChangeSchema } from '@/contract/recent-change.wire-schemas'
import { problemResponse } from '@/contract/problem.schema'
import { LIST_QUERY_SCHEMA, page } from '@/contract/route-parts.schema'

/** The recent changes: every change across the site, for patrolling it. */

export const CHANGES_QUERY_SCHEMA = Type.Object({
  // Judged by the use case, so that a bad one answers the same 400 with the domain's words.
  editor: Type.Optional(
    Type.String({
      description:
        `Only this editor’s changes: a visitor’s pseudonym (${PSEUDONYM_LENGTH} lowercase hex ` +
        `digits, as the history and \`npm run news -- who ADDRESS\` give it), \`${OPERATOR}\` ` +
        `or \`${UNKNOWN_EDITOR}\`; anything else answers 400.`,
    }),
  ),
  ...LIST_QUERY_SCHEMA.properties,
})

export const LIST_CHANGES_SCHEMA = {
  tags: ['history'],
  summary: 'A page of the recent changes across the site, newest first',
  description:
    'Every creation, edit, deletion and restore of the last ' +
    `${CHANGE_LOG_RETENTION_DAYS} days, made through any server or the operator’s commands, ` +
    'newest first by `seq` (the live stream’s numbering), each with its editor and the post’s ' +
    'title at that revision. A revision the operator hid is listed with `hidden: true` and an ' +
    'empty title. A post purged for good leaves the list. While older changes remain, ' +
    '`Link: </api/changes?editor=E&limit=N&cursor=C>; rel="next"` names the next page ' +
    '(`editor=` only when given).',
  querystring: CHANGES_QUERY_SCHEMA,
  response: {
    200: page('The page of changes.', RecentChangeSchema),
    400: problemResponse('The editor, the limit or the cursor is not valid.'),
  },
} as const
