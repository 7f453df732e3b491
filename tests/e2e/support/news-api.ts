import type { NewsItem } from '@/domain/news-item.entity'

export type { NewsItem }

/** What a visitor writes. A type, not an interface, so that `toMatchObject` takes it. */
export type NewsDraft = Pick<NewsItem, 'title' | 'body' | 'author'>

/** One version of a post, as GET /api/news/:id/revisions lists it. */
export interface NewsRevision {
  readonly revision: number
  readonly title: string
  readonly action: string
}

/**
 * Arranges and inspects the server's data through its public API, the way another client
 * would, so that the browser only does what a visitor does.
 */
export class NewsApi {
  constructor(readonly origin: string) {}

  async create(draft: NewsDraft): Promise<NewsItem> {
    return (await this.send('POST', '/api/news', 201, draft)).json() as Promise<NewsItem>
  }

  /** A post created and deleted at once: one in Recently deleted. */
  async createDeleted(draft: NewsDraft): Promise<NewsItem> {
    const post = await this.create(draft)
    await this.delete(post._id)
    return post
  }

  /** Creates posts one after another, so that the newest (the last) comes first in the list. */
  async createMany<const Drafts extends readonly NewsDraft[]>(
    drafts: Drafts,
  ): Promise<{ -readonly [K in keyof Drafts]: NewsItem }> {
    const items: NewsItem[] = []
    for (const draft of drafts) items.push(await this.create(draft))
    return items as { -readonly [K in keyof Drafts]: NewsItem }
  }

  /** `count` posts, draft(1) to draft(count). */
  createNumbered(count: number): Promise<NewsItem[]> {
    return this.createMany(Array.from({ length: count }, (_, n) => draft(n + 1)))
  }

  /** A change to a post, as another client would make it. */
  async edit(id: string, changes: Partial<NewsDraft>): Promise<NewsItem> {
    return (await this.send('PATCH', postPath(id), 200, changes)).json() as Promise<NewsItem>
  }

  /** Moves a post to the trash. */
  async delete(id: string): Promise<void> {
    await this.send('DELETE', postPath(id), 204)
  }

  /** Brings a post back from the trash. */
  async restore(id: string): Promise<void> {
    await this.send('POST', `${postPath(id)}/restore`, 200)
  }

  /** The item, or undefined when the API answers 404 (a post in the trash answers 404 too). */
  async find(id: string): Promise<NewsItem | undefined> {
    const response = await fetch(`${this.origin}${postPath(id)}`)
    if (response.status === 404) return undefined
    if (response.status !== 200) throw new Error(`GET ${postPath(id)}: ${await answer(response)}`)
    return (await response.json()) as NewsItem
  }

  /** The first page (up to 100 items), newest first. */
  async list(): Promise<NewsItem[]> {
    return (await this.send('GET', '/api/news?limit=100', 200)).json() as Promise<NewsItem[]>
  }

  /**
   * A post's whole history, page by page, newest first: follows each `Link: <…>; rel="next"`
   * as any client would, and counts the pages.
   */
  async history(
    id: string,
  ): Promise<{ readonly versions: NewsRevision[]; readonly pages: number }> {
    const versions: NewsRevision[] = []
    let next: string | undefined = `${postPath(id)}/revisions`
    let pages = 0
    while (next !== undefined && pages < 100) {
      const response: Response = await this.send('GET', next, 200)
      versions.push(...((await response.json()) as NewsRevision[]))
      next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1]
      pages += 1
    }
    return { versions, pages }
  }

  /** Deletes every post, so that a test starts from an empty site. */
  async clear(): Promise<void> {
    for (let items = await this.list(); items.length > 0; items = await this.list()) {
      for (const item of items) {
        const response = await fetch(`${this.origin}${postPath(item._id)}`, { method: 'DELETE' })
        if (response.status !== 204 && response.status !== 404) {
          throw new Error(`DELETE ${postPath(item._id)}: ${await answer(response)}`)
        }
      }
    }
  }

  /** A request to the API that must answer `status`; `headers` speak for another visitor. */
  async send(
    method: string,
    path: string,
    status: number,
    body?: object,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<Response> {
    const response = await fetch(new URL(path, this.origin), {
      method,
      headers: { ...headers, ...(body && { 'Content-Type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    })
    if (response.status !== status) throw new Error(`${method} ${path}: ${await answer(response)}`)
    return response
  }
}

const postPath = (id: string) => `/api/news/${encodeURIComponent(id)}`

async function answer(response: Response): Promise<string> {
  return `${response.status} ${await response.text()}`
}

/** A post with distinct, readable values; `n` keeps a batch apart. */
export function draft(n: number, overrides: Partial<NewsDraft> = {}): NewsDraft {
  return {
    title: `Harbour report number ${n}`,
    author: `Reporter ${n}`,
    body: `Ships came in early on day ${n}. The harbour master counted the cargo twice.`,
    ...overrides,
  }
}
