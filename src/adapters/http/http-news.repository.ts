import {
  DomainErrorException,
  notFound,
  unavailable,
  validationFailed,
  type DomainError,
} from '@/domain/domain-error'
import {
  NEWS_FIELDS,
  type NewsChanges,
  type NewsDraft,
  type NewsItem,
} from '@/domain/news-item.entity'
import type { NewsPage, NewsPageQuery, NewsRepository } from '@/domain/ports/news-repository.port'
import {
  discardBody,
  JsonHttpClient,
  withDomainErrors,
  type HttpOptions,
} from '@/adapters/http/json-http.client'
import { nextLinkOf } from '@/adapters/http/link-header.parser'
import { fieldMessagesOf, isNewsItem, pickNewsItem } from '@/adapters/http/response.guards'

const NEWS_PATH = '/api/news'

/**
 * Talks to the NewsWire API (`/api/news`). A page's `next` token is the absolute URL of its
 * `Link rel="next"`. Only links back to the API's own list (same origin and path) are followed,
 * so neither a server nor a forged token can send the browser elsewhere: a foreign link reads
 * as "no next page", and a foreign cursor fails as Unavailable without a request.
 */
export class HttpNewsRepository implements NewsRepository {
  private readonly http: JsonHttpClient

  constructor(options: HttpOptions = {}) {
    this.http = new JsonHttpClient(options)
  }

  list({ limit, cursor }: NewsPageQuery): Promise<NewsPage> {
    return withDomainErrors(async () => {
      const listUrl = this.http.url(NEWS_PATH)
      if (limit !== undefined) listUrl.searchParams.set('limit', String(limit))
      // A next URL already carries the page size the first request asked for.
      const url = cursor === undefined ? listUrl : new URL(cursor)
      if (!isSameList(url, listUrl)) throw new DomainErrorException(unavailable())
      const response = await this.http.send(url)
      const body = await expectJson(response, 200, 'collection')
      if (!Array.isArray(body) || !body.every(isNewsItem)) {
        throw new DomainErrorException(unavailable())
      }
      const items = body.map(pickNewsItem)
      const next = nextLinkOf(response.headers.get('link'), url)
      return next !== undefined && isSameList(next, listUrl)
        ? { items, next: next.href }
        : { items }
    })
  }

  get(id: string): Promise<NewsItem> {
    return withDomainErrors(async () => {
      const response = await this.http.send(this.itemUrl(id))
      return expectItem(await expectJson(response, 200, 'item'))
    })
  }

  create({ title, body, author }: NewsDraft): Promise<NewsItem> {
    return withDomainErrors(async () => {
      const json = { title, body, author }
      const response = await this.http.send(this.http.url(NEWS_PATH), { method: 'POST', json })
      return expectItem(await expectJson(response, 201, 'collection'))
    })
  }

  update(id: string, changes: NewsChanges): Promise<NewsItem> {
    return withDomainErrors(async () => {
      // Only the fields being changed, and nothing else a caller's object might carry.
      const given = NEWS_FIELDS.filter((field) => changes[field] !== undefined)
      const json = Object.fromEntries(given.map((field) => [field, changes[field]]))
      const response = await this.http.send(this.itemUrl(id), { method: 'PATCH', json })
      return expectItem(await expectJson(response, 200, 'item'))
    })
  }

  remove(id: string): Promise<void> {
    return withDomainErrors(async () => {
      const response = await this.http.send(this.itemUrl(id), { method: 'DELETE' })
      if (response.status !== 204) throw new DomainErrorException(await failureOf(response, 'item'))
      discardBody(response)
    })
  }

  private itemUrl(id: string): URL {
    return this.http.url(`${NEWS_PATH}/${encodeURIComponent(id)}`)
  }
}

/** Whether a call addresses the list or one item, which decides what a 404 means. */
type Addressed = 'collection' | 'item'

function isSameList(url: URL, listUrl: URL): boolean {
  return url.origin === listUrl.origin && url.pathname === listUrl.pathname
}

/** The parsed body of an answer with the expected status; any other status is a failure. */
async function expectJson(
  response: Response,
  status: number,
  addressed: Addressed,
): Promise<unknown> {
  if (response.status !== status) {
    throw new DomainErrorException(await failureOf(response, addressed))
  }
  return response.json()
}

function expectItem(body: unknown): NewsItem {
  if (!isNewsItem(body)) throw new DomainErrorException(unavailable())
  return pickNewsItem(body)
}

/**
 * What a failing answer means. 404 is NotFound only on an item's URL (on the list it means a
 * wrong API address); 422 carries field messages; everything else is Unavailable, and the
 * server's own words never travel further.
 */
async function failureOf(response: Response, addressed: Addressed): Promise<DomainError> {
  if (response.status === 404 && addressed === 'item') {
    discardBody(response)
    return notFound()
  }
  if (response.status === 422) {
    const problem: unknown = await response.json().catch(() => undefined)
    const fields = fieldMessagesOf(problem)
    return fields === undefined ? unavailable() : validationFailed(fields)
  }
  discardBody(response)
  return unavailable()
}
