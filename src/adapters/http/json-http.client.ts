import { toDomainError } from '@/domain/domain-error'

export interface HttpOptions {
  /** Where the API lives: an origin, optionally with a path prefix; '' means this page's origin. */
  readonly baseUrl?: string
  readonly fetch?: typeof fetch
  /** How long a call may take, reading the body included, before it counts as failed. */
  readonly timeoutMs?: number
}

export const DEFAULT_TIMEOUT_MS = 15_000

export interface JsonRequest {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  readonly json?: unknown
  /** Further request headers, such as If-Match or Idempotency-Key. */
  readonly headers?: Readonly<Record<string, string>>
}

/** Sends JSON requests to the API with a timeout; it leaves the meaning of answers to callers. */
export class JsonHttpClient {
  private readonly base: string
  private readonly fetch: typeof fetch
  private readonly timeoutMs: number

  constructor({
    baseUrl = '',
    fetch = globalThis.fetch.bind(globalThis),
    timeoutMs = DEFAULT_TIMEOUT_MS,
  }: HttpOptions = {}) {
    this.base = baseUrl.replace(/\/+$/, '')
    this.fetch = fetch
    this.timeoutMs = timeoutMs
  }

  /** An absolute URL for an API path; a same-origin base needs a page to resolve against. */
  url(path: string): URL {
    return new URL(this.base + path, globalThis.location?.href)
  }

  send(
    url: URL,
    { method = 'GET', json, headers: extra = {} }: JsonRequest = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...extra, Accept: 'application/json' }
    if (json !== undefined) headers['Content-Type'] = 'application/json'
    return this.fetch(url, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
      // The API lets caches keep lists and posts for a few seconds (for a CDN); the app itself
      // always revalidates (a cheap 304 by ETag), so a visitor sees their own write at once.
      cache: 'no-cache',
      // The same signal also bounds reading the body, so a stalled stream times out too.
      signal: AbortSignal.timeout(this.timeoutMs),
    })
  }
}

/** Runs a call so that it rejects only with a DomainError; anything else is Unavailable. */
export async function withDomainErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (thrown) {
    throw toDomainError(thrown)
  }
}

/** Drops a body we will not read, so that the connection goes back to the pool. */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => undefined)
}
