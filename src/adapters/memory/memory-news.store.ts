import { UNKNOWN_EDITOR } from '@/domain/editor'
import { changeKindOf, type NewsChange, type RecentChange } from '@/domain/news-change.entity'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { ChangeLogBounds, NewsChangeLog } from '@/application/ports/change-log.port'
import {
  liveItem,
  trashedItem,
  type PurgeCutoffs,
  type StoredNews,
} from '@/domain/rules/news-history.rules'
import {
  searchDocumentOf,
  searchTierOf,
  searchTiers,
  type SearchQuery,
  type SearchTier,
} from '@/domain/rules/search-query.rules'
import { decodeSearchCursor, tieredPage, type RankedItem } from '@/adapters/shared/search-cursor'
import { MemoryNewsTransaction, type MemoryState } from '@/adapters/memory/memory-news.transaction'
import type * as Port from '@/domain/ports/news-store.port'
import * as paging from '@/adapters/shared/keyset-cursor'

export interface MemoryNewsStoreOptions {
  /** Live posts to start with; each gets a one-revision history numbered `item.revision`. */
  readonly seed?: readonly NewsItem[]
}

/**
 * The NewsStore in memory, for tests and the browser's test composition. It keeps the same
 * promises as the SQL store: transactions are serialised and all or nothing (the work writes
 * to a journal that is applied only when it resolves), both lists are keyset-paged with the
 * same opaque cursors, and a malformed cursor is refused with ValidationFailed.
 */
export class MemoryNewsStore implements Port.NewsStore, NewsChangeLog {
  private readonly state: MemoryState = {
    posts: new Map(),
    histories: new Map(),
    keys: new Map(),
    published: new Map(),
    changes: [],
  }
  private sequence = 0
  /**
   * The change signal, raised as the SQL stores raise theirs: by a write's commit (by one per
   * revision it appended) and the purge.
   */
  private currentVersion = 0
  /** The log holds every change above this seq. */
  private purgedThrough = 0
  private queue: Promise<unknown> = Promise.resolve()

  constructor(options: MemoryNewsStoreOptions = {}) {
    for (const item of options.seed ?? []) {
      // Lenient with seeds written before posts had versions.
      const revision = item.revision ?? 1
      const updatedAt = item.updatedAt ?? item.createdAt
      this.state.posts.set(item._id, { ...item, updatedAt, revision, deletedAt: null })
      this.state.histories.set(item._id, [
        {
          revision,
          title: item.title,
          body: item.body,
          author: item.author,
          action: revision === 1 ? 'create' : 'edit',
          at: updatedAt,
          editor: UNKNOWN_EDITOR,
        },
      ])
    }
    // Seeds are published in the order of their dates, whatever order they come in.
    const byDate = [...this.state.posts.values()].sort((a, b) =>
      isBefore({ at: a.createdAt, id: a._id }, { at: b.createdAt, id: b._id }) ? -1 : 1,
    )
    byDate.forEach((item, index) => this.state.published.set(item._id, index + 1))
  }

  async list(query: Port.NewsPageQuery): Promise<Port.NewsPage> {
    const limit = paging.clampPageSize(query.limit)
    const after = query.cursor === undefined ? undefined : paging.decodeCursor(query.cursor)
    const live = [...this.state.posts.values()].filter((item) => item.deletedAt === null)
    const rows = pageAfter(live, (item) => ({ at: item.createdAt, id: item._id }), limit, after)
    const page = paging.keysetPage(rows, limit, (item) => ({ at: item.createdAt, id: item._id }))
    return { ...page, items: page.items.map(liveItem) }
  }

  async search(query: SearchQuery, page: Port.NewsPageQuery): Promise<Port.NewsPage> {
    const limit = paging.clampPageSize(page.limit)
    const after = page.cursor === undefined ? undefined : decodeSearchCursor(page.cursor)
    const matches = this.matches(query)
    const result = await tieredPage(
      searchTiers(query.terms),
      after,
      limit,
      async (tier, before, count) =>
        matches
          .filter((match) => match.tier === tier && (before === undefined || match.seq < before))
          .sort((a, b) => b.seq - a.seq)
          .slice(0, count),
    )
    return { ...result, items: result.items.map(liveItem) }
  }

  async trash(query: Port.NewsPageQuery): Promise<Port.TrashPage> {
    const limit = paging.clampPageSize(query.limit)
    const after = query.cursor === undefined ? undefined : paging.decodeCursor(query.cursor)
    const trashed = [...this.state.posts.values()].flatMap((item) =>
      item.deletedAt === null ? [] : [trashedItem({ ...item, deletedAt: item.deletedAt })],
    )
    const rows = pageAfter(trashed, (item) => ({ at: item.deletedAt, id: item._id }), limit, after)
    return paging.keysetPage(rows, limit, (item) => ({ at: item.deletedAt, id: item._id }))
  }

  async changes(query: Port.ChangesQuery): Promise<Port.ChangePage> {
    const limit = paging.clampPageSize(query.limit)
    const before = query.cursor === undefined ? undefined : paging.decodeChangeCursor(query.cursor)
    const rows: RecentChange[] = []
    for (let index = this.state.changes.length - 1; index >= 0; index -= 1) {
      const change = this.state.changes[index]
      if (change === undefined || (before !== undefined && change.seq >= before)) continue
      // As the SQL join: a change whose revision is gone (a purged post) is not listed.
      const revision = this.state.histories
        .get(change.id)
        ?.find((each) => each.revision === change.revision)
      if (revision === undefined) continue
      if (query.editor !== undefined && revision.editor !== query.editor) continue
      const { editor, title, hidden } = revision
      rows.push({ ...change, editor, title, ...(hidden === true ? { hidden } : {}) })
      if (rows.length > limit) break
    }
    return paging.changePage(rows, limit)
  }

  async find(id: string): Promise<StoredNews | undefined> {
    return this.state.posts.get(id)
  }

  async version(): Promise<number> {
    return this.currentVersion
  }

  async changesSince(seq: number, limit: number): Promise<readonly NewsChange[]> {
    return this.state.changes.filter((change) => change.seq > seq).slice(0, Math.max(0, limit))
  }

  async changeLogBounds(): Promise<ChangeLogBounds> {
    return { version: this.currentVersion, purgedThrough: this.purgedThrough }
  }

  async revisions(newsId: string, query: Port.NewsPageQuery): Promise<Port.RevisionPage> {
    const limit = paging.clampHistoryPageSize(query.limit)
    const before =
      query.cursor === undefined ? undefined : paging.decodeRevisionCursor(query.cursor)
    const rows = [...(this.state.histories.get(newsId) ?? [])]
      .reverse()
      .filter((revision) => before === undefined || revision.revision < before)
      .slice(0, limit + 1)
    return paging.revisionPage(rows, limit)
  }

  async changedSince(instant: string, filter: Port.ChangeFilter = {}): Promise<readonly string[]> {
    const counts = (revision: NewsRevision): boolean =>
      revision.at >= instant &&
      (filter.until === undefined || revision.at < filter.until) &&
      (filter.editor === undefined || revision.editor === filter.editor)
    return [...this.state.histories].filter(([, history]) => history.some(counts)).map(([id]) => id)
  }

  purge({ trashedBefore, keysBefore, changesBefore }: PurgeCutoffs): Promise<Port.PurgeReport> {
    return this.serialised(async () => {
      let posts = 0
      for (const [id, item] of this.state.posts) {
        if (item.deletedAt !== null && item.deletedAt < trashedBefore) {
          this.state.posts.delete(id)
          this.state.histories.delete(id)
          this.state.published.delete(id)
          posts += 1
        }
      }
      let keys = 0
      for (const [key, record] of this.state.keys) {
        if (record.createdAt < keysBefore) {
          this.state.keys.delete(key)
          keys += 1
        }
      }
      // As the SQL stores: the old changes, and every change numbered below them.
      const old = this.state.changes.filter((change) => change.at < changesBefore)
      const through = Math.max(0, ...old.map((change) => change.seq))
      if (old.length > 0) {
        this.state.changes.splice(
          0,
          this.state.changes.filter((change) => change.seq <= through).length,
        )
        this.purgedThrough = Math.max(this.purgedThrough, through)
      }
      this.currentVersion += 1
      return { posts, keys }
    })
  }

  transaction<T>(work: (tx: Port.NewsStoreTransaction) => Promise<T>): Promise<T> {
    return this.serialised(async () => {
      const tx = new MemoryNewsTransaction(this.state, () => this.newId())
      const result = await work(tx)
      if (tx.apply()) {
        const appended = tx.appendedInOrder()
        this.currentVersion += Math.max(1, appended.length)
        const first = this.currentVersion - appended.length + 1
        appended.forEach(({ newsId, revision }, index) =>
          this.state.changes.push({
            seq: first + index,
            id: newsId,
            kind: changeKindOf(revision.action, revision.restoredFrom),
            revision: revision.revision,
            at: revision.at,
          }),
        )
      }
      return result
    })
  }

  /** The live posts that hold every word of the query, with their tier and place. */
  private matches(query: SearchQuery): RankedItem<StoredNews>[] {
    const matches: RankedItem<StoredNews>[] = []
    for (const item of this.state.posts.values()) {
      if (item.deletedAt !== null) continue
      const tier: SearchTier | undefined = searchTierOf(searchDocumentOf(item), query.terms)
      const seq = this.state.published.get(item._id)
      if (tier !== undefined && seq !== undefined) matches.push({ item, tier, seq })
    }
    return matches
  }

  /** One at a time, in call order, as a database's write lock would have them. */
  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work)
    this.queue = run.catch(() => undefined)
    return run
  }

  private newId(): string {
    do this.sequence += 1
    while (this.state.posts.has(`news-${this.sequence}`))
    return `news-${this.sequence}`
  }
}

/** The rows after `after` in newest-first order, one more than `limit` when there are. */
function pageAfter<Item>(
  items: readonly Item[],
  positionOf: (item: Item) => paging.KeysetPosition,
  limit: number,
  after: paging.KeysetPosition | undefined,
): Item[] {
  return items
    .map((item) => ({ item, position: positionOf(item) }))
    .filter(({ position }) => after === undefined || isBefore(position, after))
    .sort((a, b) =>
      isBefore(a.position, b.position) ? 1 : isBefore(b.position, a.position) ? -1 : 0,
    )
    .slice(0, limit + 1)
    .map(({ item }) => item)
}

/** Whether `a` sorts before `b` in (at, id) order, as SQL compares the row values. */
function isBefore(a: paging.KeysetPosition, b: paging.KeysetPosition): boolean {
  return a.at < b.at || (a.at === b.at && a.id < b.id)
}
