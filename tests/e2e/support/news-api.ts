/** A news item as the API answers it (the README's API section, and the OpenAPI description the server serves). */
export interface NewsItem {
  readonly _id: string
  readonly title: string
  readonly body: string
  readonly author: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly revision: number
}

export type NewsDraft = Pick<NewsItem, 'title' | 'body' | 'author'>

/**
 * Arranges and inspects the server's data through its public API, the way another client
 * would, so that the browser only does what a visitor does.
 */
export class NewsApi {
  constructor(readonly origin: string) {}

  async create(draft: NewsDraft): Promise<NewsItem> {
    const response = await fetch(`${this.origin}/api/news`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(draft),
    })
    if (response.status !== 201) throw new Error(`POST /api/news: ${await answer(response)}`)
    return (await response.json()) as NewsItem
  }

  /** A post created and deleted at once: one in Recently deleted. */
  async createDeleted(draft: NewsDraft): Promise<NewsItem> {
    const post = await this.create(draft)
    await deleteThroughApi(this.origin, post._id)
    return post
  }

  /** Creates posts one after another, so that the newest (the last) comes first in the list. */
  async createMany(drafts: readonly NewsDraft[]): Promise<NewsItem[]> {
    const items: NewsItem[] = []
    for (const draft of drafts) items.push(await this.create(draft))
    return items
  }

  /** The item, or undefined when the API answers 404. */
  async find(id: string): Promise<NewsItem | undefined> {
    const response = await fetch(`${this.origin}/api/news/${encodeURIComponent(id)}`)
    if (response.status === 404) return undefined
    if (response.status !== 200) throw new Error(`GET /api/news/${id}: ${await answer(response)}`)
    return (await response.json()) as NewsItem
  }

  /** The first page (up to 100 items), newest first. */
  async list(): Promise<NewsItem[]> {
    const response = await fetch(`${this.origin}/api/news?limit=100`)
    if (response.status !== 200) throw new Error(`GET /api/news: ${await answer(response)}`)
    return (await response.json()) as NewsItem[]
  }

  /** Deletes every post, so that a test starts from an empty site. */
  async clear(): Promise<void> {
    for (let items = await this.list(); items.length > 0; items = await this.list()) {
      for (const item of items) {
        const response = await fetch(`${this.origin}/api/news/${encodeURIComponent(item._id)}`, {
          method: 'DELETE',
        })
        if (response.status !== 204 && response.status !== 404) {
          throw new Error(`DELETE /api/news/${item._id}: ${await answer(response)}`)
        }
      }
    }
  }
}

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

/** Moves a post to the trash through the public API. */
export async function deleteThroughApi(origin: string, id: string): Promise<void> {
  const response = await fetch(`${origin}/api/news/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  })
  if (response.status !== 204) {
    throw new Error(`DELETE /api/news/${id}: ${response.status} ${await response.text()}`)
  }
}
