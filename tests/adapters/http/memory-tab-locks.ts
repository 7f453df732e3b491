import type { TabLocks } from '@/adapters/http/shared-tab.news-changes'

interface Request {
  readonly tab: number
  readonly grant: () => void
}

/** One tab's view of the origin's locks: closing the tab lets go of what it holds or awaits. */
export interface TabLockView {
  /** The tab's number, from 1 in the order the tabs were made. */
  readonly number: number
  readonly locks: TabLocks
  close(): void
}

/**
 * The Web Locks API's exclusive locks in memory, shared by the "tabs" of a test: Node has no
 * navigator.locks. As in a browser, a lock is granted to one request at a time, in the order
 * asked, never within `request` itself; it is held until the promise its callback returned
 * settles, and the request's promise then settles with it. A closed tab's locks go to the next
 * request at once, and its waiting requests are forgotten.
 */
export class MemoryTabLocks {
  private readonly holders = new Map<string, Request>()
  private readonly queues = new Map<string, Request[]>()
  private tabs = 0

  tab(): TabLockView {
    this.tabs += 1
    const tab = this.tabs
    let closed = false
    return {
      number: tab,
      locks: {
        request: (name, _options, callback) =>
          new Promise((resolve, reject) => {
            const request: Request = {
              tab,
              grant: () => {
                callback({ name, mode: 'exclusive' })
                  .then(resolve, reject)
                  .finally(() => {
                    if (!closed && this.holders.get(name) === request) this.next(name)
                  })
              },
            }
            this.queueOf(name).push(request)
            queueMicrotask(() => this.grantIfFree(name))
          }),
      },
      close: () => {
        closed = true
        for (const [name, queue] of this.queues) {
          this.queues.set(
            name,
            queue.filter((request) => request.tab !== tab),
          )
        }
        for (const [name, holder] of this.holders) {
          if (holder.tab === tab) this.next(name)
        }
      },
    }
  }

  /** The number of the tab that holds `name`. */
  holder(name: string): number | undefined {
    return this.holders.get(name)?.tab
  }

  private queueOf(name: string): Request[] {
    let queue = this.queues.get(name)
    if (queue === undefined) this.queues.set(name, (queue = []))
    return queue
  }

  private next(name: string): void {
    this.holders.delete(name)
    this.grantIfFree(name)
  }

  private grantIfFree(name: string): void {
    if (this.holders.has(name)) return
    const request = this.queueOf(name).shift()
    if (request === undefined) return
    this.holders.set(name, request)
    request.grant()
  }
}
