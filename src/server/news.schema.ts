import { Type, type Static, type TSchema } from 'typebox'
import {
  NewsItemSchema,
  NewsRevisionSchema,
  TrashedNewsItemSchema,
  type Assert,
  type SameType,
} from '@/adapters/http/news.wire-schemas'
import type { NewsChanges, NewsDraft } from '@/domain/news-item.entity'
import {
  DEFAULT_HISTORY_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  MAX_HISTORY_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from '@/domain/ports/news-repository.port'
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@/domain/rules/news-history.rules'
import { NEWS_LIMITS } from '@/domain/rules/news-item.rules'
import { SEARCH_LIMITS } from '@/domain/rules/search-query.rules'
import {
  problemResponse,
  ProblemSchema,
  StaleProblemSchema,
  TrashedProblemSchema,
} from '@/server/problem'
import { API_CACHE_CONTROL } from '@/server/http-caching'

/**
 * The schemas of the news routes, in TypeBox: Fastify checks requests and serialises answers
 * by them, the type provider types each handler's request from them, and the OpenAPI document
 * shows them. The answers' shapes are the wire schemas the browser's HTTP adapter reads by.
 * The text fields carry no length bound of their own: the domain counts characters as a reader
 * sees them (an emoji of seven code points is one), which no code-point bound can match, and it
 * refuses a text far past its limit by its length in code units before counting anything
 * (rules/character-count.ts), so a bound here would save nothing; the 16 KiB body limit bounds
 * the bytes.
 */
const text = (limit: number) =>
  Type.String({ description: `At most ${limit} characters as a reader counts them.` })

const DRAFT_PROPERTIES = {
  title: text(NEWS_LIMITS.title),
  body: text(NEWS_LIMITS.body),
  author: text(NEWS_LIMITS.author),
}

const DRAFT_SCHEMA = Type.Object(DRAFT_PROPERTIES)

// An edit changes at least one field.
const CHANGES_SCHEMA = Type.Partial(DRAFT_SCHEMA, { minProperties: 1 })

// The bodies the routes hand the use cases are the domain's own types.
export type _BodiesMatchTheDomain = [
  Assert<SameType<Readonly<Static<typeof DRAFT_SCHEMA>>, NewsDraft>>,
  Assert<SameType<Readonly<Static<typeof CHANGES_SCHEMA>>, NewsChanges>>,
]

const IGNORED = 'Other fields, such as _id and createdAt, are ignored.'

const ID = Type.String({ description: 'The post’s _id.' })

export const ID_PARAMS_SCHEMA = Type.Object({ id: ID })

const REVISION_PARAMS_SCHEMA = Type.Object({
  id: ID,
  // Text, so that a revision that is not a number is a 404 like any unknown one, not a 400.
  revision: Type.String({ description: 'A revision number, 1 or more.' }),
})

// Bounded and judged by the repository, which made it.
const CURSOR = Type.String({
  description: 'The cursor of the `Link: rel="next"` header of the previous page.',
})

export const LIST_QUERY_SCHEMA = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
      description: 'Items per page.',
    }),
  ),
  cursor: Type.Optional(CURSOR),
})

/** The list's query, and `q`, which makes it a search. */
export const NEWS_QUERY_SCHEMA = Type.Object({
  q: Type.Optional(
    Type.String({
      description:
        `Search: the live posts holding every word of q in their title, body or author, instead ` +
        `of all of them. Whole words, case and accents ignored ('CAFE' finds 'café'); quotes ` +
        `and operators are plain punctuation. Posts whose title holds every word come first, ` +
        `then some, then none, newest first within each. At most ${SEARCH_LIMITS.length} ` +
        `characters and ${SEARCH_LIMITS.terms} different words, no control characters; an empty ` +
        `or blank q answers 400, and a q without a letter or digit matches nothing.`,
    }),
  ),
  ...LIST_QUERY_SCHEMA.properties,
})

export const HISTORY_QUERY_SCHEMA = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_HISTORY_PAGE_SIZE,
      default: DEFAULT_HISTORY_PAGE_SIZE,
      description: 'Versions per page.',
    }),
  ),
  cursor: Type.Optional(CURSOR),
})

/** The words for a query parameter the schema refuses. */
export const QUERY_MESSAGES: Readonly<Record<string, string>> = {
  // One message serves the lists and the history while their bounds agree.
  limit: `Must be a whole number from 1 to ${Math.max(MAX_PAGE_SIZE, MAX_HISTORY_PAGE_SIZE)}`,
  q: 'Must be given once',
}

// Header schemas only describe: the routes judge the values, so that a bad one answers the
// status the API promises (412, 400) rather than the schema's.
const IF_MATCH_HEADERS = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'Only change the post if its ETag is one of these (`"rev-N"`, comma-separated), or `*` ' +
        'for any. Anything else matches nothing and answers 412. Without it the write always applies.',
    }),
  ),
})

const IDEMPOTENCY_HEADERS = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        `1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters naming this one submission. ` +
        'A repeat with the same key and body within 24 hours answers the first result and ' +
        'creates nothing; the same key with another body answers 422.',
    }),
  ),
})

const ETAG_HEADER = {
  ETag: Type.String({ description: 'The post’s version, `"rev-N"`; send it as If-Match.' }),
}

const LINK_HEADER = {
  Link: Type.String({ description: 'The next page, while more remain.' }),
}

/** Lists and posts may be kept a few seconds by a CDN or the browser (http-caching.ts). */
const CACHE_CONTROL_HEADER = {
  'Cache-Control': Type.String({
    description: `\`${API_CACHE_CONTROL.read}\`: may be kept briefly, then revalidated with If-None-Match.`,
  }),
}

/** The headers of a read that may be cached: its validator, and how long it may be kept. */
const cacheable = (etagDescription: string) => ({
  ETag: Type.String({ description: etagDescription }),
  ...CACHE_CONTROL_HEADER,
})

const PAGE_VALIDATORS = cacheable(
  'The page’s version, derived from its posts (the same on every server); send it as If-None-Match.',
)

const PAGE_HEADERS = { ...LINK_HEADER, ...PAGE_VALIDATORS }

const ITEM_HEADERS = cacheable(
  'The post’s version, `"rev-N"`; send it as If-Match to change it, or If-None-Match to revalidate.',
)

/** 304 to a GET whose If-None-Match names the current ETag: no body, the headers of the 200. */
const notModified = (headers: object) =>
  Type.Null({
    description: 'Not Modified: the If-None-Match names the current ETag; no body.',
    headers,
  })

/** A post as an answer documents it, with its response headers. */
const post = (description: string, headers: object) =>
  Type.Object(NewsItemSchema.properties, { description, headers })

const item = post('The post.', ETAG_HEADER)
const cachedItem = post('The post.', ITEM_HEADERS)
const notFound = problemResponse('No post has this id.')
const invalid = problemResponse('A field breaks a rule; `errors` holds each field’s message.')
const tooMany = problemResponse('Too many writes from this address; see Retry-After.')
const notLive = {
  description: 'No live post has this id. A post in the trash carries itself as `trashed`.',
  content: {
    'application/problem+json': { schema: Type.Union([ProblemSchema, TrashedProblemSchema]) },
  },
} as const
const stale = {
  description:
    'The If-Match names another version than the stored one; nothing changed. ' +
    '`current` is the stored post, and `ETag` its version.',
  headers: ETAG_HEADER,
  content: {
    'application/problem+json': { schema: StaleProblemSchema },
  },
} as const
const bodyFailures = {
  400: problemResponse('The body is not valid JSON.'),
  413: problemResponse('The body is larger than 16 KiB.'),
  415: problemResponse('The body is not application/json.'),
  422: invalid,
  429: tooMany,
} as const

// Immutable: a use case's page is a readonly list, answered as it is.
const page = <Item extends TSchema>(description: string, items: Item) =>
  Type.Immutable(Type.Array(items, { description, headers: LINK_HEADER }))

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
    204: Type.Null({ description: 'In the trash.' }),
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
    404: problemResponse('No post has this id (or it was purged).'),
    409: problemResponse('The post is not in the trash.'),
    429: tooMany,
  },
} as const
