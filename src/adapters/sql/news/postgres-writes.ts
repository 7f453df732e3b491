import { sql, type Kysely, type OperationNodeSource, type RawBuilder } from 'kysely'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { SITE_VERSION_ROW, type LoggedChange } from '@/adapters/sql/news/change-log'

type Db = Kysely<NewsWireSchema>

/**
 * A write of a transaction on PostgreSQL that waits to be sent with the others (see
 * SqlNewsTransaction): an insert, update or delete that returns one row per row it wrote.
 */
export interface HeldWrite {
  readonly query: OperationNodeSource
  /** How many rows it must write, and the failure when it wrote another number. */
  readonly expect?: { readonly rows: number; readonly failure: string }
}

/**
 * Sends `writes` in one statement, each a data-modifying WITH query of its own, and checks the
 * rows each wrote. PostgreSQL runs all the parts of one statement on one snapshot, so `writes`
 * must not write one row twice, nor read what another writes (the caller sends them apart).
 */
export async function sendTogether(db: Db, writes: readonly HeldWrite[]): Promise<void> {
  if (writes.length === 0) return
  const { ctes, counts } = parts(writes)
  const { rows } = await sql<Record<string, string>>`with ${sql.join(ctes)} select ${sql.join(
    counts.map((count, index) => sql`${count} as ${sql.ref(`w${index}`)}`),
  )}`.execute(db)
  checkRows(writes, rows[0])
}

/**
 * Sends `writes`, then raises the change signal by one per change in `changes` (by one when
 * none) and logs them under the versions they brought, as raiseVersion does, all in one
 * statement. The version's update waits, in its condition, until every write has run, so that
 * it locks the version after the rows the writes write; only the writes' triggers, which
 * PostgreSQL runs at the statement's end (the post's sitemap block), lock after it. Every
 * transaction of the store takes them in that order (SqlNewsStore), and the version's lock is
 * held for the rest of this one statement and its commit, not for round trips after it.
 */
export async function sendWithVersion(
  db: Db,
  writes: readonly HeldWrite[],
  changes: readonly LoggedChange[],
): Promise<void> {
  const { ctes, counts } = parts(writes)
  const written = counts.length === 0 ? sql`0` : sql.join(counts, sql` + `)
  const by = Math.max(1, changes.length)
  ctes.push(
    sql`v as (update site_version set version = version + ${by} where id = ${SITE_VERSION_ROW} and ${written} >= 0 returning version)`,
  )
  if (changes.length > 0) {
    // One parameter per column, whatever the number of changes: far below PostgreSQL's bound.
    ctes.push(sql`c as (insert into news_change (seq, news_id, kind, revision, at)
      select v.version - ${changes.length} + x.ord, x.news_id, x.kind, x.revision, x.at
      from v cross join unnest(
        ${changes.map((change) => change.newsId)}::text[],
        ${changes.map((change) => change.kind)}::text[],
        ${changes.map((change) => change.revision)}::integer[],
        ${changes.map((change) => change.at)}::timestamptz[]
      ) with ordinality as x (news_id, kind, revision, at, ord))`)
  }
  const { rows } = await sql<
    Record<string, string | null>
  >`with ${sql.join(ctes)} select ${sql.join([
    sql`(select version from v) as version`,
    ...counts.map((count, index) => sql`${count} as ${sql.ref(`w${index}`)}`),
  ])}`.execute(db)
  if (rows[0]?.version === null || rows[0]?.version === undefined) {
    throw new Error('site_version has no row')
  }
  checkRows(writes, rows[0])
}

/** Each write as a WITH query `w`i, and the count of the rows it wrote. */
function parts(writes: readonly HeldWrite[]): {
  ctes: RawBuilder<unknown>[]
  counts: RawBuilder<unknown>[]
} {
  return {
    ctes: writes.map(({ query }, index) => sql`${sql.ref(`w${index}`)} as (${query})`),
    counts: writes.map((_, index) => sql`(select count(*) from ${sql.ref(`w${index}`)})`),
  }
}

function checkRows(
  writes: readonly HeldWrite[],
  row: Record<string, string | null> | undefined,
): void {
  for (const [index, { expect }] of writes.entries()) {
    if (expect !== undefined && Number(row?.[`w${index}`]) !== expect.rows) {
      throw new Error(expect.failure)
    }
  }
}
