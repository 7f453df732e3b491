import { sql, type Kysely } from 'kysely'
import type { NewsChange, NewsChangeKind } from '@/domain/news-change.entity'
import type { ChangeLogBounds, NewsChangeLog } from '@/application/ports/change-log.port'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { toChange } from '@/adapters/sql/news/mapper'
import { guardStorage, type StorageErrorListener } from '@/adapters/sql/storage-failure'

type Db = Kysely<NewsWireSchema>

/** The one row of site_version (its check constraint admits no other). */
export const SITE_VERSION_ROW = 1

export /** A revision a transaction appended, as the change log records it. */
interface LoggedChange {
  readonly newsId: string
  readonly kind: NewsChangeKind
  readonly revision: number
  readonly at: string
}

/**
 * The change signal and the change log (news_change), read by the live streams' ChangeFeed and
 * by every server's ChangeWatcher. The store's transactions write them (raiseVersion); this
 * only reads.
 */
export class SqlChangeLog implements NewsChangeLog {
  /** Compiled once: it runs before every cached read, where building it would cost as much. */
  private readonly versionQuery

  constructor(
    private readonly db: Db,
    private readonly onError?: StorageErrorListener,
  ) {
    this.versionQuery = db
      .selectFrom('site_version')
      .select('version')
      .where('id', '=', SITE_VERSION_ROW)
      .compile()
  }

  changesSince(seq: number, limit: number): Promise<readonly NewsChange[]> {
    return guardStorage(async () => {
      if (limit < 1) return []
      const rows = await this.db
        .selectFrom('news_change')
        .select(['seq', 'news_id', 'kind', 'revision', 'at'])
        .where('seq', '>', seq)
        .orderBy('seq')
        .limit(limit)
        .execute()
      return rows.map(toChange)
    }, this.onError)
  }

  changeLogBounds(): Promise<ChangeLogBounds> {
    return guardStorage(async () => {
      const row = await this.db
        .selectFrom('site_version')
        .select(['version', 'changes_purged_through'])
        .where('id', '=', SITE_VERSION_ROW)
        .executeTakeFirst()
      if (row === undefined) throw new Error('site_version has no row')
      return { version: Number(row.version), purgedThrough: Number(row.changes_purged_through) }
    }, this.onError)
  }

  version(): Promise<number> {
    return guardStorage(async () => {
      const [row] = (await this.db.executeQuery(this.versionQuery)).rows
      if (row === undefined) throw new Error('site_version has no row')
      // PostgreSQL's bigint arrives as text.
      return Number(row.version)
    }, this.onError)
  }
}

/**
 * Moves the change signal on, inside the caller's transaction, as its last update: by one per
 * change appended (by one when none was, for a write of a key alone or the purge), then logs
 * the changes under the versions they brought; see SqlNewsStore. `purgedThrough`, from the
 * purge, moves the log's floor up with the same update.
 */
export async function raiseVersion(
  db: Db,
  changes: readonly LoggedChange[],
  purgedThrough?: number,
): Promise<void> {
  const by = Math.max(1, changes.length)
  const floor = sql.ref('changes_purged_through')
  const raised = await db
    .updateTable('site_version')
    .set({
      version: sql<number>`version + ${by}`,
      ...(purgedThrough === undefined
        ? {}
        : {
            changes_purged_through: sql<number>`case when ${floor} < ${purgedThrough} then ${purgedThrough} else ${floor} end`,
          }),
    })
    .where('id', '=', SITE_VERSION_ROW)
    .returning('version')
    .executeTakeFirst()
  if (raised === undefined) throw new Error('site_version has no row')
  const first = Number(raised.version) - changes.length + 1
  const rows = changes.map((change, index) => ({
    seq: first + index,
    news_id: change.newsId,
    kind: change.kind,
    revision: change.revision,
    at: change.at,
  }))
  // In batches, within what either engine binds in one statement.
  for (let start = 0; start < rows.length; start += CHANGE_LOG_BATCH) {
    await db
      .insertInto('news_change')
      .values(rows.slice(start, start + CHANGE_LOG_BATCH))
      .execute()
  }
}

/** Changes logged per statement: five values each, far below the engines' bound of bindings. */
const CHANGE_LOG_BATCH = 1000

/**
 * Deletes the logged changes made before `before`, and every change numbered below them, so that
 * what stays is all the log holds above one seq (a clock that went back on some server cannot
 * leave a gap). Answers that seq, or undefined when nothing was old enough. The log's index on
 * `at` finds the changes old enough without reading the month it keeps.
 */
export async function purgeChangeLog(db: Db, before: string): Promise<number | undefined> {
  const oldest = await db
    .selectFrom('news_change')
    .select((eb) => eb.fn.max('seq').as('through'))
    .where('at', '<', before)
    .executeTakeFirst()
  if (oldest?.through === null || oldest?.through === undefined) return undefined
  const through = Number(oldest.through)
  await db.deleteFrom('news_change').where('seq', '<=', through).execute()
  return through
}
