import type { SqlDatabase } from '@/adapters/sql/database'
import { CARRIED_TABLES } from '@/adapters/sql/site-archive/archive-tables'
import {
  differingTables,
  digestSite,
  type TableDigest,
} from '@/adapters/sql/site-archive/site-digest'
import { loadSite } from '@/adapters/sql/site-archive/site-loader'
import { inSnapshot, siteRows } from '@/adapters/sql/site-archive/site-rows'

export interface CopyReport {
  readonly source: readonly TableDigest[]
  readonly target: readonly TableDigest[]
  /** The tables whose counts or digests differ; empty when the copy is exact. */
  readonly differing: readonly string[]
}

/**
 * Copies every carried table (the outbox included: the site moves, no file is left behind) from
 * `source` into the empty `target`, rows streaming from one to the other a page at a time, then
 * digests both sides: the source's copy and digests are read from one snapshot of it.
 */
export async function copySite(source: SqlDatabase, target: SqlDatabase): Promise<CopyReport> {
  const sourceDigests = await inSnapshot(source.db, async (snapshot) => {
    await loadSite(target.db, target.engine, siteRows(snapshot, source.engine, CARRIED_TABLES))
    return digestSite(snapshot, source.engine, CARRIED_TABLES)
  })
  const targetDigests = await digestSite(target.db, target.engine, CARRIED_TABLES)
  return {
    source: sourceDigests,
    target: targetDigests,
    differing: differingTables(sourceDigests, targetDigests),
  }
}
