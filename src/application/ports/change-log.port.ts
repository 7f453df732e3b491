import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsStore } from '@/domain/ports/news-store.port'
import type { ChangeSignal } from '@/application/ports/change-signal.port'

/*
 * What the server needs of the changes the news store's transactions record: the live streams
 * replay the log, and every server watches the signal. Not a news rule, so not a domain port.
 */

/** Where the change log stands. */
export interface ChangeLogBounds {
  /** The site's version now (the ChangeSignal's): no logged change has a higher seq. */
  readonly version: number
  /**
   * Every change with a higher seq is still in the log; the purge may have removed those at or
   * below it. 0 while it has removed none (or the version at which an upgraded database's log
   * began).
   */
  readonly purgedThrough: number
}

/**
 * The change log behind the live stream: one NewsChange for each revision a transaction
 * appended, written in that transaction. A transaction that appends n revisions raises the
 * version by n as its last statement, and its changes are numbered V-n+1 to V, V being the
 * version it raised it to; a transaction that wrote without appending any (a key alone) and the
 * purge raise it by 1 and log nothing. The version's row lock is held until the commit, so seq
 * order is commit order: a reader that has seen seq S will never later find a change below S
 * that it had not seen. Changes are kept CHANGE_LOG_RETENTION_MS, then purged.
 */
export interface NewsChangeLog extends ChangeSignal {
  /** The logged changes with a seq above `seq`, oldest first, at most `limit` of them. */
  changesSince(seq: number, limit: number): Promise<readonly NewsChange[]>
  changeLogBounds(): Promise<ChangeLogBounds>
}

/** A news store that can also be read as the change log its transactions write. */
export type LoggedNewsStore = NewsStore & NewsChangeLog
