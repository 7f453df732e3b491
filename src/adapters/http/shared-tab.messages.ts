import type { NewsChange } from '@/domain/news-change.entity'
import { NewsChangeSchema } from '@/contract/news-change.wire-schemas'
import { decode, isRecord } from '@/adapters/http/wire-schema.checker'

/**
 * What the tabs of one browser tell each other on their BroadcastChannel (see
 * shared-tab.news-changes.ts). A reader is one open feed in some tab, named by an id that is
 * unique across the tabs. An epoch counts the streams lost so far: a tab says which it has
 * heard of, so that a hello sent before its tab heard of the last loss opens no stream.
 */
export type TabMessage =
  /** A reader asks the leading tab to catch it up from `since` (its resume point). */
  | {
      readonly type: 'hello'
      readonly reader: string
      readonly since: number | undefined
      readonly epoch: number
    }
  /**
   * The leading tab's answer to one reader: the changes it missed, or `reset` when they cannot
   * all be told, then where the stream stands (`ready`).
   */
  | {
      readonly type: 'welcome'
      readonly reader: string
      readonly changes: readonly NewsChange[]
      readonly reset: number | undefined
      readonly ready: number
    }
  /** A change, as the leading tab's stream told it. */
  | { readonly type: 'change'; readonly change: NewsChange }
  /** The leading tab's stream could not tell what it missed: readers load again, from `seq`. */
  | { readonly type: 'reset'; readonly seq: number }
  /** The leading tab's stream was lost or refused: every reader is dropped, and tries again. */
  | { readonly type: 'dropped'; readonly epoch: number }
  /** A tab leads, in `epoch`: readers still waiting for their welcome say hello (again). */
  | { readonly type: 'leading'; readonly epoch: number }

/**
 * Reads a message from another tab. It comes from this origin's own code, but possibly from
 * another release of it, still open in an older tab: anything this release does not read
 * exactly is ignored, as is a change that does not match its wire schema.
 */
export function readTabMessage(data: unknown): TabMessage | undefined {
  if (!isRecord(data)) return undefined
  switch (data.type) {
    case 'hello':
      return typeof data.reader === 'string' && isResumePoint(data.since) && isSeq(data.epoch)
        ? { type: 'hello', reader: data.reader, since: data.since, epoch: data.epoch }
        : undefined
    case 'welcome': {
      const changes = Array.isArray(data.changes) ? data.changes.map(changeOf) : undefined
      if (changes === undefined || changes.some((change) => change === undefined)) return undefined
      return typeof data.reader === 'string' && isResumePoint(data.reset) && isSeq(data.ready)
        ? {
            type: 'welcome',
            reader: data.reader,
            changes: changes as NewsChange[],
            reset: data.reset,
            ready: data.ready,
          }
        : undefined
    }
    case 'change': {
      const change = changeOf(data.change)
      return change === undefined ? undefined : { type: 'change', change }
    }
    case 'reset':
      return isSeq(data.seq) ? { type: 'reset', seq: data.seq } : undefined
    case 'dropped':
    case 'leading':
      return isSeq(data.epoch) ? { type: data.type, epoch: data.epoch } : undefined
    default:
      return undefined
  }
}

const changeOf = (data: unknown): NewsChange | undefined => decode(NewsChangeSchema, data)

const isSeq = (value: unknown): value is number => Number.isSafeInteger(value) && Number(value) >= 0

const isResumePoint = (value: unknown): value is number | undefined =>
  value === undefined || isSeq(value)
