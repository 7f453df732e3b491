import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'

export interface NewsPageQuery {
  /** How many items at most; adapters bound it. */
  readonly limit?: number
  /** The `next` token of the previous page. */
  readonly cursor?: string
}

export interface NewsPage {
  /** Newest first. */
  readonly items: readonly NewsItem[]
  /** An opaque token for the following page, absent on the last page. */
  readonly next?: string
}

export const DEFAULT_PAGE_SIZE = 24
export const MAX_PAGE_SIZE = 100

/**
 * Where posts are kept. Methods reject with DomainErrorException:
 * NotFound for an unknown id, Unavailable when the store cannot answer.
 */
export interface NewsRepository {
  list(query: NewsPageQuery): Promise<NewsPage>
  get(id: string): Promise<NewsItem>
  create(draft: NewsDraft): Promise<NewsItem>
  update(id: string, changes: NewsChanges): Promise<NewsItem>
  remove(id: string): Promise<void>
}
