import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
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
import { raiseVersion, type LoggedChange } from '@/adapters/sql/news/change-log'
import { sendTogether, sendWithVersion, type HeldWrite } from '@/adapters/sql/news/postgres-writes'
import { REVISION_COLUMNS, toNewsRow, toRevision, toStoredNews } from '@/adapters/sql/news/mapper'
import { selectNews } from '@/adapters/sql/news/queries'

type Db = Kysely<NewsWireSchema>

/** A row for each row written, so that PostgreSQL can count them (see HeldWrite). */
const ONE = sql<number>`1`.as('one')

/** The most writes held at once: past that they are sent, so that a statement stays small. */
const MOST_HELD = 64

/**
 * The reads and writes of one transaction of the store; see SqlNewsStore.
 *
 * On PostgreSQL each statement is a round trip, so the writes are held and sent together, in
 * one statement (postgres-writes.ts): with the change signal's raise at the end (`finish`), or
 * before the next read, which must see them. The transaction itself begins only before a
 * statement that another must follow (`begin`): a create with no key reads nothing, and is
 * then one statement, which PostgreSQL commits by itself. SQLite runs each at once: there a
 * statement is a call in this process, and its search index needs the row's search_seq.
 */
export class SqlNewsTransaction implements NewsStoreTransaction {
  /** Whether the work changed anything, so that the change signal must move. */
  wrote = false
  /** The changes to log at the commit, in the order their revisions were appended. */
  readonly appended: LoggedChange[] = []
  /** PostgreSQL's writes not sent yet, in their order. */
  private held: HeldWrite[] = []
  /** The posts the held writes write, which a second write of one must not join. */
  private readonly heldPosts = new Set<string>()
  /** The idempotency keys this transaction read and found absent. */
  private readonly absentKeys = new Set<string>()

  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
    /** Begins the transaction, if it has not begun; PostgreSQL's only (transactions.ts). */
    private readonly begin: () => Promise<void>,
  ) {}

  async find(id: string): Promise<StoredNews | undefined> {
    await this.sendHeld()
    // SQLite has no row locks; its transactions already hold the database's write lock.
    return findNews(this.db, id, this.engine === 'postgres')
  }

  newId(): string {
    return newNewsId()
  }

  async insert(item: StoredNews): Promise<void> {
    this.wrote = true
    const insert = this.db
      .insertInto('news')
      .values({ ...toNewsRow(item), ...searchInsertValues(this.engine, item) })
    if (this.engine === 'postgres') return this.hold(item._id, { query: insert.returning(ONE) })
    const [row] = await insert.returning('search_seq').execute()
    await this.reindex(row?.search_seq, item, { fresh: true })
  }

  async update(item: StoredNews): Promise<void> {
    this.wrote = true
    const { id: _id, created_at: _createdAt, ...row } = toNewsRow(item)
    const update = this.db
      .updateTable('news')
      .set({ ...row, ...searchUpdateValues(this.engine, item) })
      .where('id', '=', item._id)
    const failure = `no post ${item._id} to update`
    if (this.engine === 'postgres') {
      return this.hold(item._id, { query: update.returning(ONE), expect: { rows: 1, failure } })
    }
    const updated = await update.returning('search_seq').execute()
    if (updated.length !== 1) throw new Error(failure)
    await this.reindex(updated[0]?.search_seq, item)
  }

  /**
   * The changes' last statement, run by the store when the work wrote: the held writes, then
   * the change signal's raise and log (SqlNewsStore). On PostgreSQL one statement; begun
   * first when a held write could fail after its rows were written (a check of their count).
   */
  async finish(): Promise<void> {
    if (this.engine !== 'postgres') return raiseVersion(this.db, this.appended)
    if (this.held.some((write) => write.expect !== undefined)) await this.begin()
    const held = this.release()
    await sendWithVersion(this.db, held, this.appended)
  }

  /**
   * Holds a write; one of `newsId`'s row after sending those held when it would be a second
   * (one statement must not write a row twice).
   */
  private async hold(newsId: string | undefined, write: HeldWrite): Promise<void> {
    const second = newsId !== undefined && this.heldPosts.has(newsId)
    if (second || this.held.length >= MOST_HELD) await this.sendHeld()
    if (newsId !== undefined) this.heldPosts.add(newsId)
    this.held.push(write)
  }

  /** What a read needs, or a write sent at once: the transaction begun, the writes before it sent. */
  private async sendHeld(): Promise<void> {
    await this.begin()
    await sendTogether(this.db, this.release())
  }

  /** The held writes, no longer held. */
  private release(): HeldWrite[] {
    const held = this.held
    this.held = []
    this.heldPosts.clear()
    return held
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
    const insert = this.db.insertInto('news_revision').values({
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
    // A revision's row is its own (news_id, revision): it never meets another held write's.
    if (this.engine === 'postgres') return this.hold(undefined, { query: insert.returning(ONE) })
    await insert.execute()
  }

  async revision(newsId: string, revision: number): Promise<NewsRevision | undefined> {
    if (!isNewsId(newsId) || !isRevisionNumber(revision)) return undefined
    await this.sendHeld()
    const row = await this.db
      .selectFrom('news_revision')
      .select(REVISION_COLUMNS)
      .where('news_id', '=', newsId)
      .where('revision', '=', revision)
      .executeTakeFirst()
    return row === undefined ? undefined : toRevision(row)
  }

  async findKey(key: string): Promise<IdempotencyRecord | undefined> {
    await this.sendHeld()
    const row = await this.db
      .selectFrom('idempotency_key')
      .select(['key', 'fingerprint', 'news_id', 'created_at'])
      .where('key', '=', key)
      .executeTakeFirst()
    if (row === undefined) this.absentKeys.add(key)
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
    // the loser again, and it finds the winner's key. A key this transaction found absent has
    // no expired record: one written since was written live.
    if (!this.absentKeys.has(record.key)) {
      await this.begin()
      await this.db
        .deleteFrom('idempotency_key')
        .where('key', '=', record.key)
        .where('created_at', '<=', expiredBy(record.createdAt))
        .execute()
    }
    const insert = this.db.insertInto('idempotency_key').values({
      key: record.key,
      fingerprint: record.fingerprint,
      news_id: record.newsId,
      created_at: record.createdAt,
    })
    if (this.engine === 'postgres') return this.hold(undefined, { query: insert.returning(ONE) })
    await insert.execute()
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
