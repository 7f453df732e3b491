import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { Negotiator } from '@fastify/accept-negotiator'
import type { FastifyRequest } from 'fastify'
import type { ChangeSignal } from '@/application/ports/change-signal.port'
import { pageEtagOf } from '@/server/services/preconditions'

/** A list page as it goes on the wire. */
export interface SerialisedPage {
  /** The serialised JSON array. */
  readonly body: string
  /** The `Link` header, when more pages remain. */
  readonly link: string | undefined
  /** Its entity tag, derived from the body and the Link alone (see pageEtagOf). */
  readonly etag: string
}

export type Encoding = 'br' | 'gzip'

/** A page, with its entity tag computed from what it holds. */
export function serialisedPage(body: string, link: string | undefined): SerialisedPage {
  return { body, link, etag: pageEtagOf(body, link) }
}

interface Entry {
  readonly version: number
  readonly page: SerialisedPage
  readonly encoded: Map<Encoding, Buffer>
}

/**
 * The default first page of GET /api/news, the most asked-for answer, kept serialised with its
 * entity tag (and compressed on demand) together with the change signal's version it was read
 * at. It is served only while that version is still the database's current one, so a write on
 * any server sharing the database, or made by the operator's CLI, retires it: there is nothing
 * to clear, and no write path touches it.
 *
 * Read the version before the page: the page then holds at least every write the version counts,
 * and a write that lands between the two only makes the entry retire early (its version is
 * already behind). That is also why no generation number is needed: a slow read can store only
 * a page labelled with the version it began at, which a later write has moved past.
 */
export class FirstPageCache {
  private entry: Entry | undefined
  private readonly versions: VersionCheck | undefined

  /**
   * Without a change signal nothing is cached: every first page is read from the store.
   * `onLookup` is told whether each look-up found the page (the metrics count hits and misses).
   */
  constructor(
    signal: ChangeSignal | undefined,
    private readonly onLookup: (hit: boolean) => void = () => undefined,
  ) {
    this.versions = signal === undefined ? undefined : new VersionCheck(signal)
  }

  /**
   * The change signal's version, read after this call began; undefined when there is no signal
   * or it failed, and then the page is read (and answered) uncached, never served from memory.
   */
  version(): Promise<number | undefined> {
    return versionOrNone(this.versions)
  }

  /** The cached page if it was read at `version`, the current one. */
  get(version: number): SerialisedPage | undefined {
    const entry = this.entry
    const hit = entry !== undefined && entry.version === version
    this.onLookup(hit)
    return hit ? entry.page : undefined
  }

  /** Keeps `page`, read after the change signal answered `version`. */
  store(version: number, page: SerialisedPage): void {
    // The last read wins, even one that began at an older version: at worst the next read misses
    // once. Keeping the higher version instead would stick if the database went back (a backup
    // put in place), and serve a page from the other timeline once the count caught up again.
    this.entry = { version, page, encoded: new Map() }
  }

  /** `page`'s body in `encoding`, compressed once per cached page; undefined if not cached. */
  encoded(page: SerialisedPage, encoding: Encoding): Buffer | undefined {
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
 * The change signal's version as `versions` reads it, undefined when there is none or it failed:
 * then the read is answered uncached, never from memory. (The store has told its error listener;
 * the read that follows answers for itself.)
 */
export async function versionOrNone(
  versions: VersionCheck | undefined,
): Promise<number | undefined> {
  if (versions === undefined) return undefined
  try {
    return await versions.current()
  } catch {
    return undefined
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

// Clients send a handful of distinct Accept-Encoding values; the bound keeps hostile ones from
// growing the memo without limit.
const MEMO_LIMIT = 64
const memo = new Map<string, string | null>()
const encodings = new Negotiator<Encoding>({
  supportedValues: ['br', 'gzip'],
  cache: {
    has: (header) => memo.has(header),
    get: (header) => memo.get(header) ?? undefined,
    set(header, encoding) {
      if (memo.size >= MEMO_LIMIT) memo.clear()
      memo.set(header, encoding)
      return this
    },
  },
})

/**
 * The encoding to send a precompressed page in: the client's highest q, br over gzip at equal q;
 * q=0 refuses one; undefined (identity) when neither is accepted. The same negotiator as
 * @fastify/compress, which compresses every other answer.
 */
export function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined) return undefined
  return encodings.negotiate(header.toLowerCase()) ?? undefined
}

/** The encoding to send a precompressed body in to `request` (preferredEncoding). */
export function encodingFor(request: FastifyRequest): Encoding | undefined {
  return preferredEncoding(request.headers['accept-encoding'])
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
