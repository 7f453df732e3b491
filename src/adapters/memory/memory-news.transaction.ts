import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { NewsStoreTransaction } from '@/domain/ports/news-store.port'
import {
  isKeyLive,
  type IdempotencyRecord,
  type StoredNews,
} from '@/domain/rules/news-history.rules'

/** Everything the memory store keeps; a transaction reads it and writes a journal beside it. */
export interface MemoryState {
  readonly posts: Map<string, StoredNews>
  /** Each post's revisions, oldest first. */
  readonly histories: Map<string, NewsRevision[]>
  readonly keys: Map<string, IdempotencyRecord>
  /** Each post's place in publication order, as the SQL stores number it for search. */
  readonly published: Map<string, number>
  /** The change log, oldest first, as the SQL stores keep it (NewsChangeLog). */
  readonly changes: NewsChange[]
}

/** Reads through its journal to the committed state; writes only to the journal. */
export class MemoryNewsTransaction implements NewsStoreTransaction {
  private readonly posts = new Map<string, StoredNews>()
  private readonly appended = new Map<string, NewsRevision[]>()
  /** Every revision appended, in the order of the calls, for the change log. */
  private readonly journal: { readonly newsId: string; readonly revision: NewsRevision }[] = []
  private readonly keys = new Map<string, IdempotencyRecord>()

  constructor(
    private readonly state: MemoryState,
    readonly newId: () => string,
  ) {}

  async find(id: string): Promise<StoredNews | undefined> {
    return this.posts.get(id) ?? this.state.posts.get(id)
  }

  async insert(item: StoredNews): Promise<void> {
    // As a primary key would: an id is never reused.
    if ((await this.find(item._id)) !== undefined || this.state.histories.has(item._id)) {
      throw new Error(`post ${item._id} exists`)
    }
    this.posts.set(item._id, item)
  }

  async update(item: StoredNews): Promise<void> {
    if ((await this.find(item._id)) === undefined) throw new Error(`no post ${item._id}`)
    this.posts.set(item._id, item)
  }

  async appendRevision(newsId: string, revision: NewsRevision): Promise<void> {
    if ((await this.revision(newsId, revision.revision)) !== undefined) {
      throw new Error(`revision ${revision.revision} of ${newsId} exists`)
    }
    this.appended.set(newsId, [...(this.appended.get(newsId) ?? []), revision])
    this.journal.push({ newsId, revision })
  }

  appendedInOrder(): readonly { readonly newsId: string; readonly revision: NewsRevision }[] {
    return this.journal
  }

  async revision(newsId: string, revision: number): Promise<NewsRevision | undefined> {
    const history = [
      ...(this.state.histories.get(newsId) ?? []),
      ...(this.appended.get(newsId) ?? []),
    ]
    return history.find((candidate) => candidate.revision === revision)
  }

  async findKey(key: string): Promise<IdempotencyRecord | undefined> {
    return this.keys.get(key) ?? this.state.keys.get(key)
  }

  async saveKey(record: IdempotencyRecord): Promise<void> {
    // As the SQL stores: an expired record makes way, a live one is kept.
    const existing = await this.findKey(record.key)
    if (existing !== undefined && isKeyLive(existing, new Date(record.createdAt))) {
      throw new Error(`key ${record.key} is in use`)
    }
    this.keys.set(record.key, record)
  }

  /** Commits the journal to the state; whether it held any write. */
  apply(): boolean {
    for (const [id, item] of this.posts) {
      // A new post is published after every post there is, as SQL numbers it.
      if (!this.state.published.has(id)) this.state.published.set(id, lastPublished(this.state) + 1)
      this.state.posts.set(id, item)
    }
    for (const [id, revisions] of this.appended) {
      this.state.histories.set(id, [...(this.state.histories.get(id) ?? []), ...revisions])
    }
    for (const [key, record] of this.keys) this.state.keys.set(key, record)
    return this.posts.size + this.appended.size + this.keys.size > 0
  }
}

/** The highest publication number given so far; 0 before the first post. */
function lastPublished(state: MemoryState): number {
  let last = 0
  for (const seq of state.published.values()) last = Math.max(last, seq)
  return last
}
