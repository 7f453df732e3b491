import { BlockList, isIP } from 'node:net'
import { v7 as uuidv7 } from 'uuid'
import type { Kysely } from 'kysely'
import type { ModerationStore, HideOutcome } from '@/application/ports/moderation.port'
import type { Editor } from '@/domain/editor'
import {
  type ClientBlock,
  type OperatorAction,
  type OperatorActionName,
  type PostProtection,
} from '@/domain/moderation.entity'
import { isNewsId } from '@/domain/news-id'
import { isRevisionNumber } from '@/domain/rules/news-history.rules'
import type { SqlDatabase } from '@/adapters/sql/database'
import { SQLITE_SEARCH_TABLE } from '@/adapters/sql/news-search.sql'
import { toIsoInstant, type NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { raiseVersion } from '@/adapters/sql/news/change-log'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'

type Db = Kysely<NewsWireSchema>

/**
 * The operator's tools in SQLite or PostgreSQL (application/ports/moderation.port.ts). Every
 * server reads the same rows, so a block or a protection holds on all of them at once.
 */
export class SqlModerationStore implements ModerationStore {
  private readonly db: Db

  constructor(
    private readonly database: SqlDatabase,
    private readonly onError?: StorageErrorListener,
  ) {
    this.db = database.db
  }

  addBlock(block: ClientBlock): Promise<void> {
    return this.guard(async () => {
      await this.db
        .insertInto('client_block')
        .values({
          id: block.id,
          kind: block.kind,
          target: block.target,
          reason: block.reason,
          created_at: block.createdAt,
          expires_at: block.expiresAt,
        })
        .execute()
    })
  }

  removeBlocks(target: string): Promise<number> {
    return this.guard(async () => {
      const result = await this.db
        .deleteFrom('client_block')
        .where((eb) => eb.or([eb('id', '=', target), eb('target', '=', target)]))
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    })
  }

  activeBlocks(now: Date): Promise<readonly ClientBlock[]> {
    return this.guard(async () => {
      const rows = await this.db
        .selectFrom('client_block')
        .selectAll()
        .where((eb) =>
          eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute()
      return rows.map(toBlock)
    })
  }

  async blockOn(
    editor: Editor,
    address: string | undefined,
    now: Date,
  ): Promise<ClientBlock | undefined> {
    // activeBlocks reads only the blocks that hold at `now`.
    const blocks = await this.activeBlocks(now)
    return blocks.find((block) =>
      block.kind === 'editor'
        ? block.target === editor
        : address !== undefined && inRange(address, block.target),
    )
  }

  /**
   * Protects a post in one transaction with a lock on it, so that a visitor's write in flight
   * (which reads the protection with the post) ends before it or sees it; the site's version
   * moves, so that cached pages and entity tags show the change.
   */
  protect(protection: PostProtection): Promise<boolean> {
    if (!isNewsId(protection.newsId)) return Promise.resolve(false)
    return this.onPost(protection.newsId, async (db) => {
      await db
        .insertInto('news_protection')
        .values({
          news_id: protection.newsId,
          reason: protection.reason,
          created_at: protection.createdAt,
        })
        .onConflict((conflict) =>
          conflict.column('news_id').doUpdateSet({ reason: protection.reason }),
        )
        .execute()
      return true
    })
  }

  unprotect(newsId: string): Promise<boolean> {
    if (!isNewsId(newsId)) return Promise.resolve(false)
    return this.onPost(newsId, async (db) => {
      const result = await db
        .deleteFrom('news_protection')
        .where('news_id', '=', newsId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    })
  }

  /** Runs `work` in a transaction that holds the post's row; false when there is no such post. */
  private onPost(newsId: string, work: (db: Db) => Promise<boolean>): Promise<boolean> {
    return this.guard(() =>
      this.database.transaction(
        async (db) => {
          const query = db.selectFrom('news').select('id').where('id', '=', newsId)
          const post = await (
            this.database.engine === 'postgres' ? query.forUpdate() : query
          ).executeTakeFirst()
          if (post === undefined) return false
          const changed = await work(db)
          if (changed) await raiseVersion(db, [])
          return changed
        },
        { durable: true },
      ),
    )
  }

  protection(newsId: string): Promise<PostProtection | undefined> {
    return this.guard(async () => {
      const row = await this.db
        .selectFrom('news_protection')
        .selectAll()
        .where('news_id', '=', newsId)
        .executeTakeFirst()
      return row === undefined
        ? undefined
        : { newsId: row.news_id, reason: row.reason, createdAt: toIsoInstant(row.created_at) }
    })
  }

  hideRevision(newsId: string, revision: number, at: string): Promise<HideOutcome> {
    if (!isNewsId(newsId) || !isRevisionNumber(revision)) return Promise.resolve('missing')
    return this.guard(() =>
      this.database.transaction(
        async (db) => {
          const post = await db
            .selectFrom('news')
            .select('revision')
            .where('id', '=', newsId)
            .executeTakeFirst()
          if (post === undefined) return 'missing'
          // The newest version is the post itself: it is edited, rolled back or purged instead.
          if (Number(post.revision) === revision) return 'newest'
          const hidden = await db
            .updateTable('news_revision')
            .set({ title: '', body: '', author: '', hidden_at: at })
            .where('news_id', '=', newsId)
            .where('revision', '=', revision)
            .executeTakeFirst()
          if (Number(hidden.numUpdatedRows) === 0) return 'missing'
          // Cached history pages hold the text: a new version makes them stale.
          await raiseVersion(db, [])
          return 'hidden'
        },
        { durable: true },
      ),
    )
  }

  purgePost(newsId: string, at: string): Promise<boolean> {
    if (!isNewsId(newsId)) return Promise.resolve(false)
    return this.guard(() =>
      this.database.transaction(
        async (db) => {
          const post = await db
            .selectFrom('news')
            .select(['revision', 'search_seq'])
            .where('id', '=', newsId)
            .executeTakeFirst()
          if (post === undefined) return false
          if (this.database.engine === 'sqlite' && post.search_seq !== null) {
            await db
              .deleteFrom(SQLITE_SEARCH_TABLE)
              .where('rowid', '=', Number(post.search_seq))
              .execute()
          }
          await db.deleteFrom('news_revision').where('news_id', '=', newsId).execute()
          await db.deleteFrom('news_change').where('news_id', '=', newsId).execute()
          await db.deleteFrom('idempotency_key').where('news_id', '=', newsId).execute()
          await db.deleteFrom('news_protection').where('news_id', '=', newsId).execute()
          await db.deleteFrom('news').where('id', '=', newsId).execute()
          // Live readers drop it as they drop a deleted post.
          await raiseVersion(db, [
            { newsId, kind: 'deleted', revision: Number(post.revision) + 1, at },
          ])
          return true
        },
        // Its delete counts the post out of its sitemap block before the version is raised, the
        // reverse of a store's write (SqlNewsStore): should the two meet on one block,
        // PostgreSQL ends one of them as a deadlock, and this runs again.
        { durable: true, attempts: 4 },
      ),
    )
  }

  record(action: OperatorAction): Promise<void> {
    return this.guard(async () => {
      await this.db
        .insertInto('operator_action')
        // A version 7 UUID grows within a process, so actions recorded in the
        // same millisecond keep their order.
        .values({ id: uuidv7(), ...action })
        .execute()
    })
  }

  actions(): Promise<readonly OperatorAction[]> {
    return this.guard(async () => {
      const rows = await this.db
        .selectFrom('operator_action')
        .selectAll()
        .orderBy('at')
        .orderBy('id')
        .execute()
      return rows.map((row) => ({
        at: toIsoInstant(row.at),
        operator: row.operator,
        action: row.action as OperatorActionName,
        target: row.target,
        reason: row.reason,
        detail: row.detail,
      }))
    })
  }

  private guard<T>(work: () => Promise<T>): Promise<T> {
    return guardStorage(work, this.onError)
  }
}

function toBlock(row: {
  id: string
  kind: string
  target: string
  reason: string
  created_at: Date | string
  expires_at: Date | string | null
}): ClientBlock {
  return {
    id: row.id,
    kind: row.kind === 'range' ? 'range' : 'editor',
    target: row.target,
    reason: row.reason,
    createdAt: toIsoInstant(row.created_at),
    expiresAt: row.expires_at === null ? null : toIsoInstant(row.expires_at),
  }
}

/** A range in CIDR form, as node:net reads it; undefined when it is not one. */
export function parseRange(text: string): { address: string; prefix: number } | undefined {
  const [address = '', bits, ...rest] = text.trim().split('/')
  const family = isIP(address)
  const prefix = Number(bits)
  if (family === 0 || rest.length > 0 || bits === undefined || !/^\d{1,3}$/.test(bits)) return
  if (prefix > (family === 4 ? 32 : 128)) return undefined
  return { address, prefix }
}

function inRange(address: string, range: string): boolean {
  const parsed = parseRange(range)
  const family = isIP(address)
  if (parsed === undefined || family === 0) return false
  const list = new BlockList()
  const rangeFamily = isIP(parsed.address) === 4 ? 'ipv4' : 'ipv6'
  list.addSubnet(parsed.address, parsed.prefix, rangeFamily)
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6')
}
