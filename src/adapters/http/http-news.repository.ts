import { notFound, unavailable } from '@/domain/domain-error'
import type { Editor } from '@/domain/editor'
import {
  NEWS_FIELDS,
  type NewsChanges,
  type NewsDraft,
  type NewsItem,
} from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import type { SearchQuery } from '@/domain/rules/search-query.rules'
import {
  discardBody,
  JsonHttpClient,
  withDomainErrors,
  type HttpOptions,
} from '@/adapters/http/json-http.client'
import { failureOf, ON_COLLECTION, ON_ITEM, type Call } from '@/adapters/http/http-failures'
import { nextLinkOf } from '@/adapters/http/link-header.parser'
import {
  newsItemOf,
  newsRevisionOf,
  recentChangeOf,
  trashedNewsItemOf,
} from '@/adapters/http/response.guards'
import type * as Port from '@/domain/ports/news-repository.port'

const NEWS_PATH = '/api/news'
const TRASH_PATH = '/api/trash'
const CHANGES_PATH = '/api/changes'

/**
 * Talks to the NewsWire API (`/api/news`, `/api/trash`, `/api/changes`). A page's `next` token is the absolute
 * URL of its `Link rel="next"`, for the lists and a post's history alike. Only links back to
 * the same API list (same origin and path; for a history, the same post's) are
 * followed, so neither a server nor a forged token can send the browser elsewhere: a foreign
 * link reads as "no next page", and a foreign cursor fails as Unavailable without a request.
 * A bare cursor, as the server's own use cases give it in a server-rendered page's data, is
 * asked for as the list's `cursor` parameter.
 * A WriteCondition travels as `If-Match: "rev-N"`, the entity tag the API gives each revision.
 */
export class HttpNewsRepository implements Port.NewsRepository {
  private readonly http: JsonHttpClient

  constructor(options: HttpOptions = {}) {
    this.http = new JsonHttpClient(options)
  }

  list(query: Port.NewsPageQuery): Promise<Port.NewsPage> {
    return this.page(this.http.url(NEWS_PATH), query, ON_COLLECTION, newsItemOf)
  }

  /** `GET /api/news?q=`: the server folds, matches and ranks; its next pages keep the query. */
  search(query: SearchQuery, page: Port.NewsPageQuery): Promise<Port.NewsPage> {
    const url = this.http.url(NEWS_PATH)
    url.searchParams.set('q', query.text)
    return this.page(url, page, ON_COLLECTION, newsItemOf)
  }

  trash(query: Port.NewsPageQuery): Promise<Port.TrashPage> {
    return this.page(this.http.url(TRASH_PATH), query, ON_COLLECTION, trashedNewsItemOf)
  }

  /** One editor's changes keep the `editor` query on every page, as the server's links do. */
  changes({ editor, ...page }: Port.ChangesQuery): Promise<Port.ChangePage> {
    const url = this.http.url(CHANGES_PATH)
    if (editor !== undefined) url.searchParams.set('editor', editor)
    return this.page(url, page, ON_COLLECTION, recentChangeOf)
  }

  get(id: string): Promise<NewsItem> {
    return withDomainErrors(async () => {
      const response = await this.http.send(this.itemUrl(id))
      return expectItem(await expectJson(response, 200, ON_ITEM))
    })
  }

  create(
    { title, body, author }: NewsDraft,
    { idempotencyKey }: Port.CreateOptions = {},
  ): Promise<NewsItem> {
    return withDomainErrors(async () => {
      const json = { title, body, author }
      const headers: Record<string, string> =
        idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }
      const response = await this.http.send(this.http.url(NEWS_PATH), {
        method: 'POST',
        json,
        headers,
      })
      const call: Call = { addressed: 'collection', keyed: idempotencyKey !== undefined }
      return expectItem(await expectJson(response, 201, call))
    })
  }

  update(id: string, changes: NewsChanges, condition?: WriteCondition): Promise<NewsItem> {
    return withDomainErrors(async () => {
      // Only the fields being changed, and nothing else a caller's object might carry.
      const given = NEWS_FIELDS.filter((field) => changes[field] !== undefined)
      const json = Object.fromEntries(given.map((field) => [field, changes[field]]))
      const response = await this.http.send(this.itemUrl(id), {
        method: 'PATCH',
        json,
        headers: ifMatchOf(condition),
      })
      return expectItem(await expectJson(response, 200, ON_ITEM))
    })
  }

  remove(id: string, condition?: WriteCondition): Promise<void> {
    return withDomainErrors(async () => {
      const response = await this.http.send(this.itemUrl(id), {
        method: 'DELETE',
        headers: ifMatchOf(condition),
      })
      if (response.status !== 204) throw await failureOf(response, ON_ITEM)
      discardBody(response)
    })
  }

  restore(id: string): Promise<NewsItem> {
    return withDomainErrors(async () => {
      const url = this.itemUrl(id, '/restore')
      const response = await this.http.send(url, { method: 'POST' })
      const call: Call = { addressed: 'item', conflict: 'NotInTrash' }
      return expectItem(await expectJson(response, 200, call))
    })
  }

  revisions(id: string, query: Port.NewsPageQuery): Promise<Port.RevisionPage> {
    // The next page of a history is only ever the same post's history.
    const url = this.itemUrl(id, '/revisions')
    return this.page(url, query, ON_ITEM, newsRevisionOf)
  }

  restoreRevision(
    id: string,
    revision: number,
    _editor?: Editor,
    condition?: WriteCondition,
  ): Promise<NewsItem> {
    return withDomainErrors(async () => {
      // No post has a revision that is not a whole number from 1; none is worth a request.
      if (!Number.isSafeInteger(revision) || revision < 1) {
        throw notFound()
      }
      const url = this.itemUrl(id, `/revisions/${revision}/restore`)
      const response = await this.http.send(url, {
        method: 'POST',
        headers: ifMatchOf(condition),
      })
      const call: Call = { addressed: 'item', conflict: 'InTrash' }
      return expectItem(await expectJson(response, 200, call))
    })
  }

  /** A page of the list at `listUrl`; `call` says what its failures mean. */
  private page<Item>(
    listUrl: URL,
    { limit, cursor }: Port.NewsPageQuery,
    call: Call,
    itemOf: (value: unknown) => Item | undefined,
  ): Promise<Port.Page<Item>> {
    return withDomainErrors(async () => {
      if (limit !== undefined) listUrl.searchParams.set('limit', String(limit))
      // A next URL already carries the page size the first request asked for.
      const url =
        cursor === undefined ? listUrl : (parsedUrl(cursor) ?? withCursor(listUrl, cursor))
      if (url === undefined || !isSameList(url, listUrl)) {
        throw unavailable()
      }
      const response = await this.http.send(url)
      const body = await expectJson(response, 200, call)
      if (!Array.isArray(body)) throw unavailable()
      const items = body.map(itemOf)
      if (!items.every((item) => item !== undefined)) {
        throw unavailable()
      }
      const next = nextLinkOf(response.headers.get('link'), url)
      return next !== undefined && isSameList(next, listUrl)
        ? { items, next: next.href }
        : { items }
    })
  }

  private itemUrl(id: string, rest = ''): URL {
    return this.http.url(`${NEWS_PATH}/${encodeURIComponent(id)}${rest}`)
  }
}

/** The If-Match header for a condition: the entity tags of the revisions it accepts. */
function ifMatchOf(condition: WriteCondition | undefined): Record<string, string> {
  if (condition === undefined) return {}
  const tags = condition.ifRevision
    .filter((revision) => Number.isSafeInteger(revision) && revision >= 1)
    .map((revision) => `"rev-${revision}"`)
  // Accepting no revision must still be a condition: no post has revision 0, so it is stale.
  return { 'If-Match': tags.length > 0 ? tags.join(', ') : '"rev-0"' }
}

/** A server's keyset cursor: URL-safe base64 of bounded length (no scheme, so never a URL). */
const BARE_CURSOR = /^[\w-]{1,256}$/

/** The list at `listUrl` from a bare `cursor` on; anything else is not worth a request. */
function withCursor(listUrl: URL, cursor: string): URL | undefined {
  if (!BARE_CURSOR.test(cursor)) return undefined
  const url = new URL(listUrl)
  url.searchParams.set('cursor', cursor)
  return url
}

/** A cursor that is a URL: one this adapter made, or a forged one that isSameList refuses. */
function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

function isSameList(url: URL, listUrl: URL): boolean {
  return url.origin === listUrl.origin && url.pathname === listUrl.pathname
}

/** The parsed body of an answer with the expected status; any other status is a failure. */
async function expectJson(response: Response, status: number, call: Call): Promise<unknown> {
  if (response.status !== status) {
    throw await failureOf(response, call)
  }
  return response.json()
}

function expectItem(body: unknown): NewsItem {
  const item = newsItemOf(body)
  if (item === undefined) throw unavailable()
  return item
}
