import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsChangeHandlers } from '@/domain/ports/news-changes.port'
import type { TabMessage } from '@/adapters/http/shared-tab.messages'

/** What a reader is told when it joins the stream: what it missed (or reset), then ready. */
export type Welcome = Omit<Extract<TabMessage, { type: 'welcome' }>, 'type' | 'reader'>

/** One open feed of a tab. */
export interface Reader {
  /** Unique across the tabs. */
  readonly id: string
  readonly handlers: NewsChangeHandlers
  /** The last change it was told; until its welcome, its resume point. */
  position: number | undefined
  /** Told what it missed, and `ready`: from now on it is told each change. */
  welcomed: boolean
}

/**
 * The open feeds of one tab (see shared-tab.news-changes.ts), told in the port's order: a
 * reader hears nothing before its welcome, and never a change twice nor one older than what it
 * was told, whichever tab's stream, or stream after a takeover, the change came through.
 */
export class TabReaders {
  private readonly open = new Map<string, Reader>()
  private readonly tab = Math.random().toString(36).slice(2)
  private count = 0

  get size(): number {
    return this.open.size
  }

  add(since: number | undefined, handlers: NewsChangeHandlers): Reader {
    this.count += 1
    const reader: Reader = {
      id: `${this.tab}.${this.count}`,
      handlers,
      position: since,
      welcomed: false,
    }
    this.open.set(reader.id, reader)
    return reader
  }

  /** Whether `reader` was still open. */
  delete(reader: Reader): boolean {
    return this.open.delete(reader.id)
  }

  get(id: string): Reader | undefined {
    return this.open.get(id)
  }

  all(): Reader[] {
    return [...this.open.values()]
  }

  waiting(): Reader[] {
    return this.all().filter((reader) => !reader.welcomed)
  }

  welcome(reader: Reader, { changes, reset, ready }: Welcome): void {
    if (!this.open.has(reader.id) || reader.welcomed) return
    reader.welcomed = true
    if (reset !== undefined) {
      reader.position = reset
      reader.handlers.reset(reset)
    }
    for (const change of changes) this.tellOne(reader, change)
    if (!this.open.has(reader.id)) return
    // A reader ahead of the leader (its page was rendered after a change the stream has not
    // told yet) stays where it is: what it would be told again, its page already shows.
    reader.position = Math.max(reader.position ?? ready, ready)
    reader.handlers.ready(reader.position)
  }

  tell(change: NewsChange): void {
    for (const reader of this.all()) {
      if (reader.welcomed) this.tellOne(reader, change)
    }
  }

  /** Tells the welcomed readers that what they show must be loaded again, from `seq` on. */
  reset(seq: number): void {
    for (const reader of this.all()) {
      if (!reader.welcomed || reader.position === seq || !this.open.has(reader.id)) continue
      reader.position = seq
      reader.handlers.reset(seq)
    }
  }

  /** Ends every feed, as a lost connection does: each tries again after its wait. */
  dropAll(): void {
    const dropped = this.all()
    this.open.clear()
    for (const reader of dropped) reader.handlers.dropped()
  }

  private tellOne(reader: Reader, change: NewsChange): void {
    if (!this.open.has(reader.id)) return
    if (reader.position !== undefined && change.seq <= reader.position) return
    reader.position = change.seq
    reader.handlers.change(change)
  }
}
