import { REVISION_ACTIONS } from '@/domain/news-revision.entity'
import {
  DEFAULT_HISTORY_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  MAX_HISTORY_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from '@/domain/ports/news-repository.port'
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@/domain/rules/news-history.rules'
import { NEWS_LIMITS } from '@/domain/rules/news-item.rules'
import { PROBLEM_SCHEMA, problemResponse } from '@/server/problem'

/**
 * JSON schemas of the news routes. The text fields carry no length bound of their own: the
 * domain counts characters as a reader sees them (an emoji of seven code points is one), which
 * no code-point bound can match, and the 16 KiB body limit already bounds the bytes.
 */
const text = (limit: number) =>
  ({ type: 'string', description: `At most ${limit} characters as a reader counts them.` }) as const

const instant = (description: string) =>
  ({ type: 'string', format: 'date-time', description: `${description} ISO 8601, UTC.` }) as const

const ITEM_PROPERTIES = {
  _id: { type: 'string', description: 'Opaque and URL-safe.' },
  title: { type: 'string' },
  body: { type: 'string' },
  author: { type: 'string' },
  createdAt: instant('When the post was published.'),
  updatedAt: instant('When the post last changed (its newest revision).'),
  revision: {
    type: 'integer',
    minimum: 1,
    description: 'The number of the post’s newest revision; its `ETag` is `"rev-N"`.',
  },
} as const

const ITEM_REQUIRED = [
  '_id',
  'title',
  'body',
  'author',
  'createdAt',
  'updatedAt',
  'revision',
] as const

export const NEWS_ITEM_SCHEMA = {
  type: 'object',
  required: ITEM_REQUIRED,
  properties: ITEM_PROPERTIES,
} as const

export const TRASHED_ITEM_SCHEMA = {
  type: 'object',
  required: [...ITEM_REQUIRED, 'deletedAt'],
  properties: {
    ...ITEM_PROPERTIES,
    deletedAt: instant('When the post went to the trash.'),
  },
} as const

export const NEWS_REVISION_SCHEMA = {
  type: 'object',
  required: ['revision', 'title', 'body', 'author', 'action', 'at'],
  properties: {
    revision: { type: 'integer', minimum: 1 },
    title: { type: 'string' },
    body: { type: 'string' },
    author: { type: 'string' },
    action: { type: 'string', enum: REVISION_ACTIONS },
    at: instant('When the change was made.'),
    restoredFrom: {
      type: 'integer',
      minimum: 1,
      description: 'For a restored version, the revision it brought back.',
    },
  },
} as const

const DRAFT_PROPERTIES = {
  title: text(NEWS_LIMITS.title),
  body: text(NEWS_LIMITS.body),
  author: text(NEWS_LIMITS.author),
} as const

const IGNORED = 'Other fields, such as _id and createdAt, are ignored.'

export const ID_PARAMS_SCHEMA = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', description: 'The post’s _id.' } },
} as const

const REVISION_PARAMS_SCHEMA = {
  type: 'object',
  required: ['id', 'revision'],
  properties: {
    ...ID_PARAMS_SCHEMA.properties,
    // Text, so that a revision that is not a number is a 404 like any unknown one, not a 400.
    revision: { type: 'string', description: 'A revision number, 1 or more.' },
  },
} as const

export const LIST_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
      description: 'Items per page.',
    },
    cursor: {
      type: 'string',
      // Bounded and judged by the repository, which made it.
      description: 'The cursor of the `Link: rel="next"` header of the previous page.',
    },
  },
} as const

export const HISTORY_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_HISTORY_PAGE_SIZE,
      default: DEFAULT_HISTORY_PAGE_SIZE,
      description: 'Versions per page.',
    },
    cursor: LIST_QUERY_SCHEMA.properties.cursor,
  },
} as const

/** The words for a query parameter the schema refuses. */
export const QUERY_MESSAGES: Readonly<Record<string, string>> = {
  // One message serves the lists and the history while their bounds agree.
  limit: `Must be a whole number from 1 to ${Math.max(MAX_PAGE_SIZE, MAX_HISTORY_PAGE_SIZE)}`,
}

// Header schemas only describe: the routes judge the values, so that a bad one answers the
// status the API promises (412, 400) rather than the schema's.
const IF_MATCH_HEADERS = {
  type: 'object',
  properties: {
    'if-match': {
      type: 'string',
      description:
        'Only change the post if its ETag is one of these (`"rev-N"`, comma-separated), or `*` ' +
        'for any. Anything else matches nothing and answers 412. Without it the write always applies.',
    },
  },
} as const

const IDEMPOTENCY_HEADERS = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      description:
        `1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters naming this one submission. ` +
        'A repeat with the same key and body within 24 hours answers the first result and ' +
        'creates nothing; the same key with another body answers 422.',
    },
  },
} as const

const ETAG_HEADER = {
  ETag: { type: 'string', description: 'The post’s version, `"rev-N"`; send it as If-Match.' },
} as const

const LINK_HEADER = {
  Link: { type: 'string', description: 'The next page, while more remain.' },
} as const

const item = { description: 'The post.', headers: ETAG_HEADER, ...NEWS_ITEM_SCHEMA }
const notFound = problemResponse('No post has this id.')
const invalid = problemResponse('A field breaks a rule; `errors` holds each field’s message.')
const tooMany = problemResponse('Too many writes from this address; see Retry-After.')
const stale = {
  description:
    'The If-Match names another version than the stored one; nothing changed. ' +
    '`current` is the stored post, and `ETag` its version.',
  headers: ETAG_HEADER,
  content: {
    'application/problem+json': {
      schema: {
        ...PROBLEM_SCHEMA,
        required: [...PROBLEM_SCHEMA.required, 'current'],
        properties: { ...PROBLEM_SCHEMA.properties, current: NEWS_ITEM_SCHEMA },
      },
    },
  },
} as const
const bodyFailures = {
  400: problemResponse('The body is not valid JSON.'),
  413: problemResponse('The body is larger than 16 KiB.'),
  415: problemResponse('The body is not application/json.'),
  422: invalid,
  429: tooMany,
} as const

const page = (description: string, items: object) => ({
  description,
  headers: LINK_HEADER,
  type: 'array',
  items,
})

export const LIST_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'A page of posts, newest first',
  description:
    'While more posts remain, `Link: </api/news?limit=N&cursor=C>; rel="next"` names the next ' +
    'page. Posts in the trash are not listed.',
  querystring: LIST_QUERY_SCHEMA,
  response: {
    200: page('The page.', NEWS_ITEM_SCHEMA),
    400: problemResponse('A query parameter is not valid.'),
  },
} as const

export const GET_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'One post',
  description: 'A post in the trash answers 404, as one that never existed.',
  params: ID_PARAMS_SCHEMA,
  response: { 200: item, 404: notFound },
} as const

export const CREATE_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'Publish a post',
  description: `${IGNORED} Send an Idempotency-Key so that a retried submission never makes two posts.`,
  headers: IDEMPOTENCY_HEADERS,
  body: {
    type: 'object',
    required: ['title', 'body', 'author'],
    properties: DRAFT_PROPERTIES,
  },
  response: {
    201: {
      description:
        'The stored post (revision 1); `Location` names it. A repeated Idempotency-Key answers ' +
        'the post as the first request made it.',
      headers: { Location: { type: 'string' }, ...ETAG_HEADER },
      ...NEWS_ITEM_SCHEMA,
    },
    ...bodyFailures,
    400: problemResponse('The body is not valid JSON, or the Idempotency-Key is not valid.'),
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
  body: { type: 'object', minProperties: 1, properties: DRAFT_PROPERTIES },
  response: { 200: item, ...bodyFailures, 404: notFound, 412: stale },
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
    204: { description: 'In the trash.', type: 'null' },
    404: problemResponse('No post has this id, or it is already in the trash.'),
    412: stale,
    429: tooMany,
  },
} as const

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
    200: page('The page of the history.', NEWS_REVISION_SCHEMA),
    400: problemResponse('A query parameter is not valid.'),
    404: problemResponse('No post ever had this id, or it was purged.'),
  },
} as const

export const RESTORE_REVISION_SCHEMA = {
  tags: ['history'],
  summary: 'Make an old version of a post current',
  description:
    'The version becomes current as a new revision (action `restore`, `restoredFrom` naming ' +
    'the old one): history only grows. No body is needed.',
  params: REVISION_PARAMS_SCHEMA,
  response: {
    200: item,
    404: problemResponse('No post has this id, or it has no revision of this number.'),
    409: problemResponse('The post is in the trash; restore it first.'),
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
    200: page('The page.', TRASHED_ITEM_SCHEMA),
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
    404: problemResponse('No post has this id (or it was purged).'),
    409: problemResponse('The post is not in the trash.'),
    429: tooMany,
  },
} as const
