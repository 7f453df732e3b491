import { Type, type Static, type TSchema } from 'typebox'
import { API_CACHE_CONTROL } from '@/contract/api-cache-control'
import { NewsItemSchema, type Assert, type SameType } from '@/contract/news.wire-schemas'
import {
  BlockedProblemSchema,
  problemResponse,
  ProblemSchema,
  StaleProblemSchema,
  TrashedProblemSchema,
} from '@/contract/problem.schema'
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

export const DRAFT_SCHEMA = Type.Object(DRAFT_PROPERTIES)

// An edit changes at least one field.
export const CHANGES_SCHEMA = Type.Partial(DRAFT_SCHEMA, { minProperties: 1 })

// The bodies the routes hand the use cases are the domain's own types.
export type _BodiesMatchTheDomain = [
  Assert<SameType<Readonly<Static<typeof DRAFT_SCHEMA>>, NewsDraft>>,
  Assert<SameType<Readonly<Static<typeof CHANGES_SCHEMA>>, NewsChanges>>,
]

export const IGNORED = 'Other fields, such as _id and createdAt, are ignored.'

const ID = Type.String({ description: 'The post’s _id.' })

export const ID_PARAMS_SCHEMA = Type.Object({ id: ID })

export const REVISION_PARAMS_SCHEMA = Type.Object({
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
export const IF_MATCH_HEADERS = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'Only change the post if its ETag is one of these (`"rev-N"`, comma-separated), or `*` ' +
        'for any. Anything else matches nothing and answers 412. Without it the write always applies.',
    }),
  ),
})

export const IDEMPOTENCY_HEADERS = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        `1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters naming this one submission. ` +
        'A repeat with the same key and body within 24 hours answers the first result and ' +
        'creates nothing; the same key with another body answers 422.',
    }),
  ),
})

export const ETAG_HEADER = {
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

export const PAGE_VALIDATORS = cacheable(
  'The page’s version, derived from its posts (the same on every server); send it as If-None-Match.',
)

export const PAGE_HEADERS = { ...LINK_HEADER, ...PAGE_VALIDATORS }

export const ITEM_HEADERS = cacheable(
  'The post’s version, `"rev-N"`; send it as If-Match to change it, or If-None-Match to revalidate.',
)

/** 304 to a GET whose If-None-Match names the current ETag: no body, the headers of the 200. */
export const notModified = (headers: object) =>
  Type.Null({
    description: 'Not Modified: the If-None-Match names the current ETag; no body.',
    headers,
  })

/** A post as an answer documents it, with its response headers. */
export const post = (description: string, headers: object) =>
  Type.Object(NewsItemSchema.properties, { description, headers })

export const item = post('The post.', ETAG_HEADER)
export const cachedItem = post('The post.', ITEM_HEADERS)
export const notFound = problemResponse('No post has this id.')
export const invalid = problemResponse(
  'A field breaks a rule; `errors` holds each field’s message.',
)
export const tooMany = problemResponse('Too many writes from this address; see Retry-After.')
export const blocked = {
  description:
    'The operator blocked writes from this client (`type` `/problems/blocked`); `reason` and ' +
    '`until` (null until lifted) say why and for how long. Reads still work.',
  content: { 'application/problem+json': { schema: BlockedProblemSchema } },
} as const
export const refused = {
  description:
    'The operator blocked writes from this client (`type` `/problems/blocked`, with `reason` ' +
    'and `until`), or protected the post (`type` `/problems/protected`).',
  content: {
    'application/problem+json': { schema: Type.Union([BlockedProblemSchema, ProblemSchema]) },
  },
} as const
export const notLive = {
  description: 'No live post has this id. A post in the trash carries itself as `trashed`.',
  content: {
    'application/problem+json': { schema: Type.Union([ProblemSchema, TrashedProblemSchema]) },
  },
} as const
export const stale = {
  description:
    'The If-Match names another version than the stored one; nothing changed. ' +
    '`current` is the stored post, and `ETag` its version.',
  headers: ETAG_HEADER,
  content: {
    'application/problem+json': { schema: StaleProblemSchema },
  },
} as const
export const bodyFailures = {
  400: problemResponse('The body is not valid JSON.'),
  413: problemResponse('The body is larger than 16 KiB.'),
  415: problemResponse('The body is not application/json.'),
  422: invalid,
  429: tooMany,
} as const

// Immutable: a use case's page is a readonly list, answered as it is.
export const page = <Item extends TSchema>(description: string, items: Item) =>
  Type.Immutable(Type.Array(items, { description, headers: LINK_HEADER }))
