import { Type } from 'typebox'
import { NewsItemSchema } from '@/contract/news.wire-schemas'
import { problemResponse } from '@/contract/problem.schema'
import {
  ID_PARAMS_SCHEMA,
  NEWS_QUERY_SCHEMA,
  item,
  tooMany,
  notModified,
  PAGE_VALIDATORS,
  PAGE_HEADERS,
  ITEM_HEADERS,
  cachedItem,
  notFound,
  notLive,
  post,
  IDEMPOTENCY_HEADERS,
  ETAG_HEADER,
  bodyFailures,
  blocked,
  refused,
  stale,
  IF_MATCH_HEADERS,
  DRAFT_SCHEMA,
  CHANGES_SCHEMA,
  IGNORED,
} from '@/contract/route-parts.schema'

/** The news routes: the list and search, one post, and the three writes. */

export const LIST_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'A page of posts, newest first, or of the posts a search finds',
  description:
    'While more posts remain, `Link: </api/news?limit=N&cursor=C>; rel="next"` names the next ' +
    'page (for a search, `</api/news?q=Q&limit=N&cursor=C>`). Posts in the trash are not ' +
    'listed, nor found.',
  querystring: NEWS_QUERY_SCHEMA,
  response: {
    200: Type.Immutable(
      Type.Array(NewsItemSchema, { description: 'The page.', headers: PAGE_HEADERS }),
    ),
    304: notModified(PAGE_VALIDATORS),
    400: problemResponse(
      'A query parameter is not valid: `errors` names it, with what q must be for a search.',
    ),
    429: problemResponse(
      'Too many searches from this address (SEARCH_RATE_LIMIT); see Retry-After.',
    ),
  },
} as const

export const GET_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'One post',
  description:
    'A post in the trash answers 404, as one that never existed, with the post as `trashed`.',
  params: ID_PARAMS_SCHEMA,
  response: { 200: cachedItem, 304: notModified(ITEM_HEADERS), 404: notLive },
} as const

export const CREATE_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'Publish a post',
  description: `${IGNORED} Send an Idempotency-Key so that a retried submission never makes two posts.`,
  headers: IDEMPOTENCY_HEADERS,
  body: DRAFT_SCHEMA,
  response: {
    201: post(
      'The stored post (revision 1); `Location` names it. A repeated Idempotency-Key answers ' +
        'the post as the first request made it.',
      { Location: Type.String(), ...ETAG_HEADER },
    ),
    ...bodyFailures,
    400: problemResponse('The body is not valid JSON, or the Idempotency-Key is not valid.'),
    403: blocked,
    422: problemResponse(
      'A field breaks a rule (`errors` holds each field’s message), or the Idempotency-Key was ' +
        'used for another post in the last 24 hours.',
    ),
  },
} as const

export const EDIT_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'Change any of title, body and author',
  description: `${IGNORED} The change is recorded as a new revision.`,
  params: ID_PARAMS_SCHEMA,
  headers: IF_MATCH_HEADERS,
  body: CHANGES_SCHEMA,
  response: { 200: item, ...bodyFailures, 403: refused, 404: notFound, 412: stale },
} as const

export const DELETE_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'Move a post to the trash',
  description:
    'The post leaves the list and answers 404, but stays restorable from the trash for ' +
    'TRASH_DAYS days (30 by default), with its history; then it is purged for good.',
  params: ID_PARAMS_SCHEMA,
  headers: IF_MATCH_HEADERS,
  response: {
    204: Type.Null({ description: 'In the trash.' }),
    403: refused,
    404: problemResponse('No post has this id, or it is already in the trash.'),
    412: stale,
    429: tooMany,
  },
} as const
