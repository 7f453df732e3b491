import { DomainErrorException, notFound } from '@/domain/domain-error'
import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import {
  DEFAULT_PAGE_SIZE,
  type NewsPage,
  type NewsPageQuery,
  type NewsRepository,
} from '@/domain/ports/news-repository.port'
import { Faults } from '@/adapters/memory/faults'

export interface MemoryNewsOptions {
  readonly seed?: readonly NewsItem[]
  readonly now?: () => Date
}

/** Keeps posts in a Map. The list is newest first; the cursor is the last id of the page. */
export class MemoryNewsRepository implements NewsRepository {
  private readonly items = new Map<string, NewsItem>()
  private sequence = 0
  private readonly now: () => Date
  readonly faults = new Faults<'list' | 'get' | 'create' | 'update' | 'remove'>()

  constructor(options: MemoryNewsOptions = {}) {
    this.now = options.now ?? (() => new Date())
    for (const item of options.seed ?? []) this.items.set(item._id, item)
  }

  async list({ limit = DEFAULT_PAGE_SIZE, cursor }: NewsPageQuery): Promise<NewsPage> {
    await this.faults.enter('list')
    const sorted = [...this.items.values()].sort(newestFirst)
    const start = cursor === undefined ? 0 : sorted.findIndex((item) => item._id === cursor) + 1
    const items = sorted.slice(start, start + limit)
    const last = items.at(-1)
    const more = start + limit < sorted.length
    return more && last ? { items, next: last._id } : { items }
  }

  async get(id: string): Promise<NewsItem> {
    await this.faults.enter('get')
    return this.find(id)
  }

  async create(draft: NewsDraft): Promise<NewsItem> {
    await this.faults.enter('create')
    do this.sequence += 1
    while (this.items.has(`news-${this.sequence}`))
    const item: NewsItem = {
      _id: `news-${this.sequence}`,
      title: draft.title,
      body: draft.body,
      author: draft.author,
      createdAt: this.now().toISOString(),
    }
    this.items.set(item._id, item)
    return item
  }

  async update(id: string, changes: NewsChanges): Promise<NewsItem> {
    await this.faults.enter('update')
    const item = { ...this.find(id), ...changes }
    this.items.set(id, item)
    return item
  }

  async remove(id: string): Promise<void> {
    await this.faults.enter('remove')
    this.find(id)
    this.items.delete(id)
  }

  private find(id: string): NewsItem {
    const item = this.items.get(id)
    if (item === undefined) throw new DomainErrorException(notFound())
    return item
  }
}

function newestFirst(a: NewsItem, b: NewsItem): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return a._id < b._id ? 1 : a._id > b._id ? -1 : 0
}
