import { UNKNOWN_EDITOR, type Editor } from '@/domain/editor'
import { conflict, inTrash, notFound } from '@/domain/domain-error'
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
import type { NewsStore, NewsStoreTransaction, PurgeReport } from '@/domain/ports/news-store.port'
import {
  assertMayChange,
  assertRestorable,
  assertWritable,
  created,
  edited,
  fingerprintOf,
  firstVersion,
  isKeyLive,
  liveItem,
  purgeCutoffs,
  reverted,
  trashed,
  trashedItem,
  untrashed,
  type ChangeStamp,
  type Revised,
  type WriteCondition,
} from '@/domain/rules/news-history.rules'
import type { SearchQuery } from '@/domain/rules/search-query.rules'

export interface JournalOptions {
  /** The clock that dates changes. */
  readonly now?: () => Date
}

/**
 * The server's NewsRepository: every change to a post is written with the revision that
 * records it, in one transaction of the store, following the domain's history rules. The
 * browser's NewsRepository is the API itself, which answers from this.
 */
export class JournaledNewsRepository implements NewsRepository {
  private readonly now: () => Date

  constructor(
    private readonly store: NewsStore,
    options: JournalOptions = {},
  ) {
    this.now = options.now ?? (() => new Date())
  }

  list(query: NewsPageQuery): Promise<NewsPage> {
    return this.store.list(query)
  }

  trash(query: NewsPageQuery): Promise<TrashPage> {
    return this.store.trash(query)
  }

  changes(query: ChangesQuery): Promise<ChangePage> {
    return this.store.changes(query)
  }

  /** The store searches its own index, which each write keeps current in its transaction. */
  search(query: SearchQuery, page: NewsPageQuery): Promise<NewsPage> {
    return this.store.search(query, page)
  }

  /** A live post; a post in the trash is NotFound with the post as `trashed`. */
  async get(id: string): Promise<NewsItem> {
    const stored = await this.store.find(id)
    if (stored !== undefined && stored.deletedAt !== null) {
      const { deletedAt } = stored
      throw inTrash(trashedItem({ ...stored, deletedAt }))
    }
    assertWritable(stored)
    return liveItem(stored)
  }

  async revisions(id: string, query: NewsPageQuery): Promise<RevisionPage> {
    const page = await this.store.revisions(id, query)
    // An empty page is the end of a history, or no history at all: only the post tells which.
    if (page.items.length === 0 && (await this.store.find(id)) === undefined) {
      throw notFound()
    }
    return page
  }

  create(draft: NewsDraft, { idempotencyKey, editor }: CreateOptions = {}): Promise<NewsItem> {
    return this.store.transaction(async (tx) => {
      const stamp = this.stamp(editor)
      const { now } = stamp
      const fingerprint = fingerprintOf(draft)
      if (idempotencyKey !== undefined) {
        const remembered = await tx.findKey(idempotencyKey)
        if (remembered !== undefined && isKeyLive(remembered, now)) {
          if (remembered.fingerprint !== fingerprint) {
            throw conflict('KeyReused')
          }
          return this.replay(tx, remembered.newsId)
        }
      }
      const change = created(tx.newId(), draft, stamp)
      await tx.insert(change.item)
      await record(tx, change)
      if (idempotencyKey !== undefined) {
        await tx.saveKey({
          key: idempotencyKey,
          fingerprint,
          newsId: change.item._id,
          createdAt: now.toISOString(),
        })
      }
      return liveItem(change.item)
    })
  }

  update(
    id: string,
    changes: NewsChanges,
    condition?: WriteCondition,
    editor?: Editor,
  ): Promise<NewsItem> {
    return this.store.transaction(async (tx) => {
      const stored = await tx.find(id)
      assertWritable(stored, condition)
      const stamp = this.stamp(editor)
      assertMayChange(stored, stamp.editor)
      const change = edited(stored, changes, stamp)
      if (change === undefined) return liveItem(stored)
      return liveItem(await write(tx, change))
    })
  }

  async remove(id: string, condition?: WriteCondition, editor?: Editor): Promise<void> {
    await this.store.transaction(async (tx) => {
      const stored = await tx.find(id)
      assertWritable(stored, condition)
      const stamp = this.stamp(editor)
      assertMayChange(stored, stamp.editor)
      await write(tx, trashed(stored, stamp))
    })
  }

  restore(id: string, editor?: Editor): Promise<NewsItem> {
    return this.store.transaction(async (tx) => {
      const stored = await tx.find(id)
      assertRestorable(stored)
      const stamp = this.stamp(editor)
      assertMayChange(stored, stamp.editor)
      return liveItem(await write(tx, untrashed(stored, stamp)))
    })
  }

  restoreRevision(
    id: string,
    revision: number,
    editor?: Editor,
    condition?: WriteCondition,
  ): Promise<NewsItem> {
    return this.store.transaction(async (tx) => {
      const stored = await tx.find(id)
      if (stored === undefined) throw notFound()
      const target = await tx.revision(id, revision)
      // A version the operator hid has no text left to bring back.
      if (target === undefined || target.hidden === true) {
        throw notFound()
      }
      if (stored.deletedAt !== null) throw conflict('InTrash')
      assertWritable(stored, condition)
      const stamp = this.stamp(editor)
      assertMayChange(stored, stamp.editor)
      return liveItem(await write(tx, reverted(stored, target, stamp)))
    })
  }

  /** Removes posts trashed more than `trashDays` ago, with their histories, and expired keys. */
  purge(trashDays: number): Promise<PurgeReport> {
    return this.store.purge(purgeCutoffs(this.now(), trashDays))
  }

  /** The change's time, and its editor: UNKNOWN_EDITOR when the caller named none. */
  private stamp(editor: Editor = UNKNOWN_EDITOR): ChangeStamp {
    return { now: this.now(), editor }
  }

  /** A repeated create answers the post as the first create made it, whatever became of it. */
  private async replay(tx: NewsStoreTransaction, newsId: string): Promise<NewsItem> {
    const stored = await tx.find(newsId)
    const first = await tx.revision(newsId, 1)
    if (stored === undefined || first === undefined) throw notFound()
    return firstVersion(stored, first)
  }
}

async function record(tx: NewsStoreTransaction, { item, revision }: Revised): Promise<void> {
  await tx.appendRevision(item._id, revision)
}

async function write(tx: NewsStoreTransaction, change: Revised): Promise<Revised['item']> {
  await tx.update(change.item)
  await record(tx, change)
  return change.item
}
