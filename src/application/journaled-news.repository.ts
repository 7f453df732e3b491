import { UNKNOWN_EDITOR, type Editor } from '@/domain/editor'
import { conflict, inTrash, notFound } from '@/domain/domain-error'
import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type { NewsStore, NewsStoreTransaction, PurgeReport } from '@/domain/ports/news-store.port'
import type { SearchQuery } from '@/domain/rules/search-query.rules'
import type * as Port from '@/domain/ports/news-repository.port'
import * as history from '@/domain/rules/news-history.rules'

export interface JournalOptions {
  /** The clock that dates changes. */
  readonly now?: () => Date
}

/**
 * The server's NewsRepository: every change to a post is written with the revision that
 * records it, in one transaction of the store, following the domain's history rules. The
 * browser's NewsRepository is the API itself, which answers from this.
 */
export class JournaledNewsRepository implements Port.NewsRepository {
  private readonly now: () => Date

  constructor(
    private readonly store: NewsStore,
    options: JournalOptions = {},
  ) {
    this.now = options.now ?? (() => new Date())
  }

  list(query: Port.NewsPageQuery): Promise<Port.NewsPage> {
    return this.store.list(query)
  }

  trash(query: Port.NewsPageQuery): Promise<Port.TrashPage> {
    return this.store.trash(query)
  }

  changes(query: Port.ChangesQuery): Promise<Port.ChangePage> {
    return this.store.changes(query)
  }

  /** The store searches its own index, which each write keeps current in its transaction. */
  search(query: SearchQuery, page: Port.NewsPageQuery): Promise<Port.NewsPage> {
    return this.store.search(query, page)
  }

  /** A live post; a post in the trash is NotFound with the post as `trashed`. */
  async get(id: string): Promise<NewsItem> {
    const stored = await this.store.find(id)
    if (stored !== undefined && stored.deletedAt !== null) {
      const { deletedAt } = stored
      throw inTrash(history.trashedItem({ ...stored, deletedAt }))
    }
    history.assertWritable(stored)
    return history.liveItem(stored)
  }

  async revisions(id: string, query: Port.NewsPageQuery): Promise<Port.RevisionPage> {
    const page = await this.store.revisions(id, query)
    // An empty page is the end of a history, or no history at all: only the post tells which.
    if (page.items.length === 0 && (await this.store.find(id)) === undefined) {
      throw notFound()
    }
    return page
  }

  create(draft: NewsDraft, { idempotencyKey, editor }: Port.CreateOptions = {}): Promise<NewsItem> {
    return this.store.transaction(async (tx) => {
      const stamp = this.stamp(editor)
      const { now } = stamp
      const fingerprint = history.fingerprintOf(draft)
      if (idempotencyKey !== undefined) {
        const remembered = await tx.findKey(idempotencyKey)
        if (remembered !== undefined && history.isKeyLive(remembered, now)) {
          if (remembered.fingerprint !== fingerprint) {
            throw conflict('KeyReused')
          }
          return this.replay(tx, remembered.newsId)
        }
      }
      const change = history.created(tx.newId(), draft, stamp)
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
      return history.liveItem(change.item)
    })
  }

  update(
    id: string,
    changes: NewsChanges,
    condition?: history.WriteCondition,
    editor?: Editor,
  ): Promise<NewsItem> {
    return this.store.transaction(async (tx) => {
      const stored = await tx.find(id)
      history.assertWritable(stored, condition)
      const stamp = this.stamp(editor)
      history.assertMayChange(stored, stamp.editor)
      const change = history.edited(stored, changes, stamp)
      if (change === undefined) return history.liveItem(stored)
      return history.liveItem(await write(tx, change))
    })
  }

  async remove(id: string, condition?: history.WriteCondition, editor?: Editor): Promise<void> {
    await this.store.transaction(async (tx) => {
      const stored = await tx.find(id)
      history.assertWritable(stored, condition)
      const stamp = this.stamp(editor)
      history.assertMayChange(stored, stamp.editor)
      await write(tx, history.trashed(stored, stamp))
    })
  }

  restore(id: string, editor?: Editor): Promise<NewsItem> {
    return this.store.transaction(async (tx) => {
      const stored = await tx.find(id)
      history.assertRestorable(stored)
      const stamp = this.stamp(editor)
      history.assertMayChange(stored, stamp.editor)
      return history.liveItem(await write(tx, history.untrashed(stored, stamp)))
    })
  }

  restoreRevision(
    id: string,
    revision: number,
    editor?: Editor,
    condition?: history.WriteCondition,
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
      history.assertWritable(stored, condition)
      const stamp = this.stamp(editor)
      history.assertMayChange(stored, stamp.editor)
      return history.liveItem(await write(tx, history.reverted(stored, target, stamp)))
    })
  }

  /** Removes posts trashed more than `trashDays` ago, with their histories, and expired keys. */
  purge(trashDays: number): Promise<PurgeReport> {
    return this.store.purge(history.purgeCutoffs(this.now(), trashDays))
  }

  /** The change's time, and its editor: UNKNOWN_EDITOR when the caller named none. */
  private stamp(editor: Editor = UNKNOWN_EDITOR): history.ChangeStamp {
    return { now: this.now(), editor }
  }

  /** A repeated create answers the post as the first create made it, whatever became of it. */
  private async replay(tx: NewsStoreTransaction, newsId: string): Promise<NewsItem> {
    const stored = await tx.find(newsId)
    const first = await tx.revision(newsId, 1)
    if (stored === undefined || first === undefined) throw notFound()
    return history.firstVersion(stored, first)
  }
}

async function record(
  tx: NewsStoreTransaction,
  { item, revision }: history.Revised,
): Promise<void> {
  await tx.appendRevision(item._id, revision)
}

async function write(
  tx: NewsStoreTransaction,
  change: history.Revised,
): Promise<history.Revised['item']> {
  await tx.update(change.item)
  await record(tx, change)
  return change.item
}
