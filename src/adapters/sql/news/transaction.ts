import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { changeKindOf } from '@/domain/news-change.entity'
import { isNewsId } from '@/domain/news-id'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { NewsStoreTransaction } from '@/domain/ports/news-store.port'
import {
  isRevisionNumber,
  IDEMPOTENCY_KEY_TTL_MS,
  type IdempotencyRecord,
  type StoredNews,
} from '@/domain/rules/news-history.rules'
import type { Engine } from '@/adapters/sql/database'
import {
  reindexSqlite,
  searchInsertValues,
  searchUpdateValues,
} from '@/adapters/sql/news-search.sql'
import { toIsoInstant, type NewsWireSchema } from '@/adapters/sql/newswire.schema'
import type { LoggedChange } from '@/adapters/sql/news/change-log'
import { REVISION_COLUMNS, toNewsRow, toRevision, toStoredNews } from '@/adapters/sql/news/mapper'
import { selectNews } from '@/adapters/sql/news/queries'

type Db = Kysely<NewsWireSchema>

/** The reads and writes of one transaction of the store; see SqlNewsStore. */
export class SqlNewsTransaction implements NewsStoreTransaction {
  /** Whether the work changed anything, so that the change signal must move. */
  wrote = false
  /** The changes to log at the commit, in the order their revisions were appended. */
  readonly appended: LoggedChange[] = []

  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
  ) {}

  find(id: string): Promise<StoredNews | undefined> {
    // SQLite has no row locks; its transactions already hold the database's write lock.
    return findNews(this.db, id, this.engine === 'postgres')
  }

  newId(): string {
    return newNewsId()
  }

  async insert(item: StoredNews): Promise<void> {
    this.wrote = true
    const [row] = await this.db
      .insertInto('news')
      .values({ ...toNewsRow(item), ...searchInsertValues(this.engine, item) })
      .returning('search_seq')
      .execute()
    await this.reindex(row?.search_seq, item, { fresh: true })
  }

  async update(item: StoredNews): Promise<void> {
    this.wrote = true
    const { id: _id, created_at: _createdAt, ...row } = toNewsRow(item)
    const updated = await this.db
      .updateTable('news')
      .set({ ...row, ...searchUpdateValues(this.engine, item) })
      .where('id', '=', item._id)
      .returning('search_seq')
      .execute()
    if (updated.length !== 1) throw new Error(`no post ${item._id} to update`)
    await this.reindex(updated[0]?.search_seq, item)
  }

  /**
   * SQLite's search index is a table of its own, brought in line here, in the write's
   * transaction; PostgreSQL's columns were set by the write itself.
   */
  private async reindex(
    seq: number | string | null | undefined,
    item: StoredNews,
    { fresh = false } = {},
  ): Promise<void> {
    if (this.engine !== 'sqlite' || seq === null || seq === undefined) return
    await reindexSqlite(this.db, Number(seq), item, fresh)
  }

  async appendRevision(newsId: string, revision: NewsRevision): Promise<void> {
    this.wrote = true
    this.appended.push({
      newsId,
      kind: changeKindOf(revision.action, revision.restoredFrom),
      revision: revision.revision,
      at: revision.at,
    })
    await this.db
      .insertInto('news_revision')
      .values({
        news_id: newsId,
        revision: revision.revision,
        title: revision.title,
        body: revision.body,
        author: revision.author,
        action: revision.action,
        at: revision.at,
        editor: revision.editor,
        restored_from: revision.restoredFrom ?? null,
      })
      .execute()
  }

  async revision(newsId: string, revision: number): Promise<NewsRevision | undefined> {
    if (!isNewsId(newsId) || !isRevisionNumber(revision)) return undefined
    const row = await this.db
      .selectFrom('news_revision')
      .select(REVISION_COLUMNS)
      .where('news_id', '=', newsId)
      .where('revision', '=', revision)
      .executeTakeFirst()
    return row === undefined ? undefined : toRevision(row)
  }

  async findKey(key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.db
      .selectFrom('idempotency_key')
      .select(['key', 'fingerprint', 'news_id', 'created_at'])
      .where('key', '=', key)
      .executeTakeFirst()
    return row === undefined
      ? undefined
      : {
          key: row.key,
          fingerprint: row.fingerprint,
          newsId: row.news_id,
          createdAt: toIsoInstant(row.created_at),
        }
  }

  async saveKey(record: IdempotencyRecord): Promise<void> {
    this.wrote = true
    // An expired record of the key makes way; a live one stays, and the insert then fails on
    // the primary key. That is how two simultaneous creates with one key end: PostgreSQL runs
    // the loser again, and it finds the winner's key.
    await this.db
      .deleteFrom('idempotency_key')
      .where('key', '=', record.key)
      .where('created_at', '<=', expiredBy(record.createdAt))
      .execute()
    await this.db
      .insertInto('idempotency_key')
      .values({
        key: record.key,
        fingerprint: record.fingerprint,
        news_id: record.newsId,
        created_at: record.createdAt,
      })
      .execute()
  }
}

/** The newest creation instant at which a key is expired at `instant`. */
function expiredBy(instant: string): string {
  return new Date(Date.parse(instant) - IDEMPOTENCY_KEY_TTL_MS).toISOString()
}

async function findNews(db: Db, id: string, lock: boolean): Promise<StoredNews | undefined> {
  // An id the domain could never issue is not looked up.
  if (!isNewsId(id)) return undefined
  const query = selectNews(db, id)
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst()
  return row === undefined ? undefined : toStoredNews(row)
}

/** 16 random bytes in base64url: 22 URL-safe characters. */
function newNewsId(): string {
  return randomBytes(16).toString('base64url')
}
