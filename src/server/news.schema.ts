import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { NEWS_LIMITS } from '@/domain/rules/news-item.rules'
import { problemResponse } from '@/server/problem'

/**
 * JSON schemas of the news routes. The text fields carry no length bound of their own: the
 * domain counts characters as a reader sees them (an emoji of seven code points is one), which
 * no code-point bound can match, and the 16 KiB body limit already bounds the bytes.
 */
const text = (limit: number) =>
  ({ type: 'string', description: `At most ${limit} characters as a reader counts them.` }) as const

export const NEWS_ITEM_SCHEMA = {
  type: 'object',
  required: ['_id', 'title', 'body', 'author', 'createdAt'],
  properties: {
    _id: { type: 'string', description: 'Opaque and URL-safe.' },
    title: { type: 'string' },
    body: { type: 'string' },
    author: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time', description: 'ISO 8601, UTC.' },
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

/** The words for a query parameter the schema refuses. */
export const QUERY_MESSAGES: Readonly<Record<string, string>> = {
  limit: `Must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
}

const item = { description: 'The post.', ...NEWS_ITEM_SCHEMA }
const notFound = problemResponse('No post has this id.')
const invalid = problemResponse('A field breaks a rule; `errors` holds each field’s message.')
const writeFailures = {
  400: problemResponse('The body is not valid JSON.'),
  413: problemResponse('The body is larger than 16 KiB.'),
  415: problemResponse('The body is not application/json.'),
  422: invalid,
  429: problemResponse('Too many writes from this address; see Retry-After.'),
} as const

export const LIST_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'A page of posts, newest first',
  description:
    'While more posts remain, `Link: </api/news?limit=N&cursor=C>; rel="next"` names the next page.',
  querystring: LIST_QUERY_SCHEMA,
  response: {
    200: {
      description: 'The page.',
      headers: { Link: { type: 'string', description: 'The next page, while more remain.' } },
      type: 'array',
      items: NEWS_ITEM_SCHEMA,
    },
    400: problemResponse('A query parameter is not valid.'),
  },
} as const

export const GET_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'One post',
  params: ID_PARAMS_SCHEMA,
  response: { 200: item, 404: notFound },
} as const

export const CREATE_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'Publish a post',
  description: IGNORED,
  body: {
    type: 'object',
    required: ['title', 'body', 'author'],
    properties: DRAFT_PROPERTIES,
  },
  response: {
    201: {
      description: 'The stored post; `Location` names it.',
      headers: { Location: { type: 'string' } },
      ...NEWS_ITEM_SCHEMA,
    },
    ...writeFailures,
  },
} as const

export const EDIT_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'Change any of title, body and author',
  description: IGNORED,
  params: ID_PARAMS_SCHEMA,
  body: { type: 'object', minProperties: 1, properties: DRAFT_PROPERTIES },
  response: { 200: item, ...writeFailures, 404: notFound },
} as const

export const DELETE_NEWS_SCHEMA = {
  tags: ['news'],
  summary: 'Delete a post',
  params: ID_PARAMS_SCHEMA,
  response: {
    204: { description: 'Deleted.', type: 'null' },
    404: notFound,
    429: writeFailures[429],
  },
} as const
