import type { Editor } from '@/domain/editor'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type {
  ChangePage,
  ChangesQuery,
  CreateOptions,
  NewsPage,
  NewsPageQuery,
  NewsRepository,
  RevisionPage,
  TrashPage,
} from '@/domain/ports/news-repository.port'
import type { PurgeReport } from '@/domain/ports/news-store.port'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import type { SearchQuery } from '@/domain/rules/search-query.rules'
import { Faults } from '@/adapters/memory/faults'
import { MemoryNewsStore, type MemoryNewsStoreOptions } from '@/adapters/memory/memory-news.store'

export interface MemoryNewsOptions extends MemoryNewsStoreOptions {
  /** The clock that dates changes. */
  readonly now?: () => Date
}

/** The repository calls a test can make fail or hold. */
export type MemoryNewsOperation =
  | 'list'
  | 'search'
  | 'get'
  | 'create'
  | 'update'
  | 'remove'
  | 'restore'
  | 'revisions'
  | 'restoreRevision'
  | 'trash'
  | 'changes'

/**
 * The server's NewsRepository (the journal over a store) with the store in memory, for tests:
 * the same history, trash, conflict and idempotency rules as production, plus `faults`, which
 * each call enters first, so that a test can make it fail or wait.
 */
export class MemoryNewsRepository implements NewsRepository {
  readonly store: MemoryNewsStore
  readonly journal: JournaledNewsRepository
  readonly faults = new Faults<MemoryNewsOperation>()

  constructor(options: MemoryNewsOptions = {}) {
    this.store = new MemoryNewsStore(options)
    this.journal = new JournaledNewsRepository(this.store, { now: options.now })
  }

  async list(query: NewsPageQuery): Promise<NewsPage> {
    await this.faults.enter('list')
    return this.journal.list(query)
  }

  async search(query: SearchQuery, page: NewsPageQuery): Promise<NewsPage> {
    await this.faults.enter('search')
    return this.journal.search(query, page)
  }

  async get(id: string): Promise<NewsItem> {
    await this.faults.enter('get')
    return this.journal.get(id)
  }

  async create(draft: NewsDraft, options?: CreateOptions): Promise<NewsItem> {
    await this.faults.enter('create')
    return this.journal.create(draft, options)
  }

  async update(
    id: string,
    changes: NewsChanges,
    condition?: WriteCondition,
    editor?: Editor,
  ): Promise<NewsItem> {
    await this.faults.enter('update')
    return this.journal.update(id, changes, condition, editor)
  }

  async remove(id: string, condition?: WriteCondition, editor?: Editor): Promise<void> {
    await this.faults.enter('remove')
    return this.journal.remove(id, condition, editor)
  }

  async restore(id: string, editor?: Editor): Promise<NewsItem> {
    await this.faults.enter('restore')
    return this.journal.restore(id, editor)
  }

  async revisions(id: string, query: NewsPageQuery = {}): Promise<RevisionPage> {
    await this.faults.enter('revisions')
    return this.journal.revisions(id, query)
  }

  async restoreRevision(id: string, revision: number, editor?: Editor): Promise<NewsItem> {
    await this.faults.enter('restoreRevision')
    return this.journal.restoreRevision(id, revision, editor)
  }

  async trash(query: NewsPageQuery): Promise<TrashPage> {
    await this.faults.enter('trash')
    return this.journal.trash(query)
  }

  async changes(query: ChangesQuery): Promise<ChangePage> {
    await this.faults.enter('changes')
    return this.journal.changes(query)
  }

  /** As the server's purge: posts trashed more than `trashDays` ago, and expired keys. */
  purge(trashDays: number): Promise<PurgeReport> {
    return this.journal.purge(trashDays)
  }
}
