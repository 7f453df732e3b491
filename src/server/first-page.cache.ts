import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { ChangeSignal } from '@/domain/ports/change-signal.port'

export interface CachedPage {
  /** The serialised JSON array. */
  readonly body: string
  /** The `Link` header, when more pages remain. */
  readonly link: string | undefined
}

export type Encoding = 'br' | 'gzip'

interface Entry {
  readonly version: number
  readonly page: CachedPage
  readonly encoded: Map<Encoding, Buffer>
}

/**
 * The default first page of GET /api/news, the most asked-for answer, kept serialised (and
 * compressed on demand) together with the change signal's version it was read at. It is served
 * only while that version is still the database's current one, so a write on any server sharing
 * the database, or made by the operator's CLI, retires it: there is nothing to clear.
 *
 * Read the version before the page: the page then holds at least every write the version counts,
 * and a write that lands between the two only makes the entry retire early (its version is
 * already behind). That is also why no generation number is needed any more: a slow read can
 * store only a page labelled with the version it began at, which a later write has moved past.
 */
export class FirstPageCache {
  private entry: Entry | undefined

  /** The cached page if it was read at `version`, the current one. */
  get(version: number): CachedPage | undefined {
    const entry = this.entry
    return entry !== undefined && entry.version === version ? entry.page : undefined
  }

  /** Keeps `page`, read after the change signal answered `version`. */
  store(version: number, page: CachedPage): void {
    // The last read wins, even one that began at an older version: at worst the next read misses
    // once. Keeping the higher version instead would stick if the database went back (a backup
    // put in place), and serve a page from the other timeline once the count caught up again.
    this.entry = { version, page, encoded: new Map() }
  }

  /** `page`'s body in `encoding`, compressed once per cached page; undefined if not cached. */
  encoded(page: CachedPage, encoding: Encoding): Buffer | undefined {
    const entry = this.entry
    if (entry === undefined || entry.page !== page) return undefined
    let bytes = entry.encoded.get(encoding)
    if (bytes === undefined) {
      const { body } = entry.page
      bytes = encoding === 'br' ? brotli(body) : gzipSync(body, { level: 9 })
      entry.encoded.set(encoding, bytes)
    }
    return bytes
  }
}

/**
 * The change signal as the cached reads ask it. Reads that arrive together share one lookup, but
 * only a lookup that starts after they all arrived: one already under way may have begun before
 * a write that was answered before a later read began. So the lookup is started on the event
 * loop's next check phase (setImmediate), after every request the current poll phase delivered;
 * each read arriving meanwhile joins it. Under load that is one lookup per turn of the loop
 * instead of one per request: a round trip on PostgreSQL, a few µs of a cached answer's 50 on
 * SQLite (checked per request, `npm run bench:api` lost a third of its rate).
 */
export class VersionCheck {
  private next: Promise<number> | undefined

  constructor(private readonly signal: ChangeSignal) {}

  /** A version read after this call began; rejects as the signal does. */
  current(): Promise<number> {
    this.next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.next = undefined
      return this.signal.version()
    })
    return this.next
  }
}

function brotli(text: string): Buffer {
  return brotliCompressSync(text, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: 9,
      [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text),
    },
  })
}
