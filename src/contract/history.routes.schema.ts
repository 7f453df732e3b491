import { NewsRevisionSchema, TrashedNewsItemSchema } from '@/contract/news.wire-schemas'
import { problemResponse } from '@/contract/problem.schema'
import {
  ID_PARAMS_SCHEMA,
  REVISION_PARAMS_SCHEMA,
  LIST_QUERY_SCHEMA,
  HISTORY_QUERY_SCHEMA,
  item,
  tooMany,
  page,
  refused,
  stale,
  IF_MATCH_HEADERS,
} from '@/contract/route-parts.schema'

/** The history routes: a post's versions and their restore, and the trash and its restore. */

export const LIST_REVISIONS_SCHEMA = {
  tags: ['history'],
  summary: 'A page of a post’s versions, newest first',
  description:
    'Works for a post in the trash too. Each change recorded one revision. While older ' +
    'versions remain, `Link: </api/news/{id}/revisions?limit=N&cursor=C>; rel="next"` names ' +
    'the next page; the pages together hold every version.',
  params: ID_PARAMS_SCHEMA,
  querystring: HISTORY_QUERY_SCHEMA,
  response: {
    200: page('The page of the history.', NewsRevisionSchema),
    400: problemResponse('A query parameter is not valid.'),
    404: problemResponse('No post ever had this id, or it was purged.'),
  },
} as const

export const RESTORE_REVISION_SCHEMA = {
  tags: ['history'],
  summary: 'Make an old version of a post current',
  description:
    'The version becomes current as a new revision (action `restore`, `restoredFrom` naming ' +
    'the old one): history only grows. No body is needed. An If-Match makes it conditional on ' +
    'the post’s current version, as for an edit.',
  params: REVISION_PARAMS_SCHEMA,
  headers: IF_MATCH_HEADERS,
  response: {
    200: item,
    403: refused,
    404: problemResponse('No post has this id, or it has no revision of this number.'),
    409: problemResponse('The post is in the trash; restore it first.'),
    412: stale,
    429: tooMany,
  },
} as const

export const LIST_TRASH_SCHEMA = {
  tags: ['history'],
  summary: 'A page of the trash, newest deletion first',
  description:
    'Posts deleted in the last TRASH_DAYS days (30 by default), restorable until then. While ' +
    'more remain, `Link: </api/trash?limit=N&cursor=C>; rel="next"` names the next page.',
  querystring: LIST_QUERY_SCHEMA,
  response: {
    200: page('The page.', TrashedNewsItemSchema),
    400: problemResponse('A query parameter is not valid.'),
  },
} as const

export const RESTORE_NEWS_SCHEMA = {
  tags: ['history'],
  summary: 'Bring a post back from the trash',
  description:
    'Under the same id, with its history; the restore is recorded as a new revision. No body ' +
    'is needed.',
  params: ID_PARAMS_SCHEMA,
  response: {
    200: item,
    403: refused,
    404: problemResponse('No post has this id (or it was purged).'),
    409: problemResponse('The post is not in the trash.'),
    429: tooMany,
  },
} as const
