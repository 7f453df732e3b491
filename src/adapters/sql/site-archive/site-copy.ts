import type { SqlDatabase } from '@/adapters/sql/database'
import { CARRIED_TABLES } from '@/adapters/sql/site-archive/archive-tables'
import {
  differingTables,
  digestSite,
  type TableDigest,
} from '@/adapters/sql/site-archive/site-digest'
import { loadSite } from '@/adapters/sql/site-archive/site-loader'
import { siteRows } from '@/adapters/sql/site-archive/site-rows'

export interface CopyReport {
  readonly source: readonly TableDigest[]
  readonly target: readonly TableDigest[]
  /** The tables whose counts or digests differ; empty when the copy is exact. */
  readonly differing: readonly string[]
}

/**
 * Copies every carried table (the outbox included: the site moves, no file is left behind) from
 * `source` into the empty `target`, rows streaming from one to the other a page at a time, then
 * digests both sides.
 */
export async function copySite(source: SqlDatabase, target: SqlDatabase): Promise<CopyReport> {
  await loadSite(target.db, target.engine, siteRows(source.db, source.engine, CARRIED_TABLES))
  const [sourceDigests, targetDigests] = await Promise.all([
    digestSite(source.db, source.engine, CARRIED_TABLES),
    digestSite(target.db, target.engine, CARRIED_TABLES),
  ])
  return {
    source: sourceDigests,
    target: targetDigests,
    differing: differingTables(sourceDigests, targetDigests),
  }
}
