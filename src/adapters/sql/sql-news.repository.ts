import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { DomainErrorException, notFound } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'
import {
  NEWS_FIELDS,
  type NewsChanges,
  type NewsDraft,
  type NewsItem,
} from '@/domain/news-item.entity'
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type NewsPage,
  type NewsPageQuery,
  type NewsRepository,
} from '@/domain/ports/news-repository.port'
import type { SqlDatabase } from '@/adapters/sql/database'
import { decodeCursor, encodeCursor, type CursorPosition } from '@/adapters/sql/news-cursor'
import { toIsoInstant, type NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'

export interface SqlNewsOptions {
  /** The clock that dates new posts. */
  readonly now?: () => Date
  /** Told about each database failure before it is reported as Unavailable. */
  readonly onError?: StorageErrorListener
}

const COLUMNS = ['id', 'title', 'body', 'author', 'created_at'] as const

/**
 * Posts in SQLite or PostgreSQL through one Kysely implementation. The list is keyset-paged on
 * (created_at, id), newest first; its cursor is an opaque token (see news-cursor.ts), and a
 * malformed one rejects with ValidationFailed on `cursor`.
 */
export class SqlNewsRepository implements NewsRepository {
  private readonly db: Kysely<NewsWireSchema>
  private readonly now: () => Date
  private readonly onError: StorageErrorListener | undefined

  constructor(database: SqlDatabase, options: SqlNewsOptions = {}) {
    this.db = database.db
    this.now = options.now ?? (() => new Date())
    this.onError = options.onError
  }

  list(query: NewsPageQuery): Promise<NewsPage> {
    return guardStorage(async () => {
      const limit = clampPageSize(query.limit)
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
      // One row more than asked tells whether another page follows.
      const rows = await selectNewsPage(this.db, limit + 1, after).execute()
      const items = rows.slice(0, limit).map(toNewsItem)
      const last = items.at(-1)
      return rows.length > limit && last !== undefined
        ? { items, next: encodeCursor({ createdAt: last.createdAt, id: last._id }) }
        : { items }
    }, this.onError)
  }

  get(id: string): Promise<NewsItem> {
    return guardStorage(() => this.find(id), this.onError)
  }

  create(draft: NewsDraft): Promise<NewsItem> {
    return guardStorage(async () => {
      const item: NewsItem = {
        _id: newNewsId(),
        title: draft.title,
        body: draft.body,
        author: draft.author,
        createdAt: this.now().toISOString(),
      }
      await this.db
        .insertInto('news')
        .values({
          id: item._id,
          title: item.title,
          body: item.body,
          author: item.author,
          created_at: item.createdAt,
        })
        .execute()
      return item
    }, this.onError)
  }

  update(id: string, changes: NewsChanges): Promise<NewsItem> {
    return guardStorage(async () => {
      const set: Partial<Record<(typeof NEWS_FIELDS)[number], string>> = {}
      for (const field of NEWS_FIELDS) {
        const value = changes[field]
        if (value !== undefined) set[field] = value
      }
      if (Object.keys(set).length === 0) return this.find(id)
      if (!isNewsId(id)) throw new DomainErrorException(notFound())
      const row = await this.db
        .updateTable('news')
        .set(set)
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirst()
      if (row === undefined) throw new DomainErrorException(notFound())
      return toNewsItem(row)
    }, this.onError)
  }

  remove(id: string): Promise<void> {
    return guardStorage(async () => {
      if (!isNewsId(id)) throw new DomainErrorException(notFound())
      const result = await this.db.deleteFrom('news').where('id', '=', id).executeTakeFirst()
      if (result.numDeletedRows === 0n) throw new DomainErrorException(notFound())
    }, this.onError)
  }

  private async find(id: string): Promise<NewsItem> {
    if (!isNewsId(id)) throw new DomainErrorException(notFound())
    const row = await this.db
      .selectFrom('news')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst()
    if (row === undefined) throw new DomainErrorException(notFound())
    return toNewsItem(row)
  }
}

/**
 * The list query: newest first, strictly after `after`, served by the composite index on
 * (created_at DESC, id DESC) whatever the table's size. Exported so that tests can EXPLAIN it.
 */
export function selectNewsPage(db: Kysely<NewsWireSchema>, limit: number, after?: CursorPosition) {
  const page = db
    .selectFrom('news')
    .select(COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
  return after === undefined
    ? page
    : page.where(({ eb, refTuple, tuple }) =>
        eb(refTuple('created_at', 'id'), '<', tuple(after.createdAt, after.id)),
      )
}

/** 1 to MAX_PAGE_SIZE; DEFAULT_PAGE_SIZE when absent or not a number. */
export function clampPageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE_SIZE)
}

/** 16 random bytes in base64url: 22 URL-safe characters. */
function newNewsId(): string {
  return randomBytes(16).toString('base64url')
}

interface NewsRow {
  id: string
  title: string
  body: string
  author: string
  created_at: Date | string
}

function toNewsItem(row: NewsRow): NewsItem {
  return {
    _id: row.id,
    title: row.title,
    body: row.body,
    author: row.author,
    createdAt: toIsoInstant(row.created_at),
  }
}
