import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { LRUCache } from 'lru-cache'
import type { ChangeSignal } from '@/application/ports/change-signal.port'
import type { FastifyReply, FastifyRequest } from 'fastify'
import {
  encodingFor,
  VersionCheck,
  versionOrNone,
  type Encoding,
} from '@/server/services/first-page.cache'

/** A rendered page as it goes on the wire, in each encoding it was asked in so far. */
export interface CachedPage {
  readonly status: number
  readonly body: Buffer
  readonly encoded: Readonly<Partial<Record<Encoding, Buffer>>>
}

/** Sends a kept page in the encoding the client prefers, as the cache compressed it. */
export function sendCachedPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: CachedPage,
): FastifyReply {
  const encoding = encodingFor(request)
  const bytes = encoding === undefined ? undefined : page.encoded[encoding]
  if (encoding === undefined || bytes === undefined) return reply.send(page.body)
  return reply.header('content-encoding', encoding).send(bytes)
}

/** What a render gives: a page to keep, or an answer that must not be kept (a redirect, a failed render). */
export type Rendered<Other> =
  | { readonly keep: true; readonly status: number; readonly body: Buffer }
  | { readonly keep: false; readonly answer: Other }

/** How the page cache reports, for the metrics. */
export interface PageCacheEvents {
  /** A look-up: found at the current version, or rendered (alone or joining a render under way). */
  readonly lookup: (hit: boolean) => void
  /** The bytes the cache holds now, after a page came in or went out. */
  readonly size: (bytes: number) => void
}

const NO_EVENTS: PageCacheEvents = { lookup: () => undefined, size: () => undefined }

/** A key's share of the bound: what the map's entry costs beside the bodies, roughly. */
const ENTRY_OVERHEAD = 256

/**
 * The rendered pages a server keeps: `/`, articles and the like, each under its address and the
 * site's version (the change signal's, which every write raises in its transaction on any server
 * sharing the database, the CLI's too). An entry is served only while its version is still the
 * current one, as the API's first page is (FirstPageCache): a write anywhere makes the next read
 * render afresh, on every server, with nothing to clear.
 *
 * The cache is bounded by bytes (the body in each encoding), least recently used first out, by
 * lru-cache. Reads of one page that arrive together share one render. A page is compressed off
 * the event loop, once in each encoding as it is first asked in (br by browsers, gzip by some
 * clients, none by others): a search asked once is compressed once, not into every encoding.
 */
export class PageCache {
  private readonly pages: LRUCache<string, KeptPage>
  private readonly rendering = new Map<string, Promise<unknown>>()
  private readonly encoding = new Map<string, Promise<KeptPage>>()
  private readonly versions: VersionCheck | undefined

  /**
   * Without a change signal, or with no bytes to hold, nothing is kept: every read renders.
   * `compression` is how hard each kept page is compressed: `thorough` (brotli 9, gzip 9) for
   * pages read many times, `quick` (brotli 4, gzip 6, as an answer compressed as it goes) for
   * pages that may be read once, such as searches, where brotli 9 costs more than the render.
   */
  constructor(
    signal: ChangeSignal | undefined,
    readonly maxBytes: number,
    private readonly events: PageCacheEvents = NO_EVENTS,
    private readonly compression: Compression = 'thorough',
  ) {
    this.versions = signal === undefined || maxBytes <= 0 ? undefined : new VersionCheck(signal)
    this.pages = new LRUCache({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (page, key) =>
        key.length +
        ENTRY_OVERHEAD +
        page.body.length +
        (page.encoded.br?.length ?? 0) +
        (page.encoded.gzip?.length ?? 0),
      disposeAfter: () => this.events.size(this.pages.calculatedSize),
    })
  }

  /** The bytes held now. */
  get bytes(): number {
    return this.pages.calculatedSize
  }

  /**
   * The site's version, read after this call began; undefined when nothing is kept or the signal
   * failed, and then the page is rendered and answered uncached.
   */
  version(): Promise<number | undefined> {
    return versionOrNone(this.versions)
  }

  /**
   * The page at `key` as of `version`, in `encoding` besides its body: kept, or rendered now
   * (once, for every read of it that arrives meanwhile) and kept if the render says so; a render
   * that must not be kept answers its own `answer` to every read that shared it.
   */
  async page<Other>(
    key: string,
    version: number,
    encoding: Encoding | undefined,
    render: () => Promise<Rendered<Other>>,
  ): Promise<CachedPage | { readonly answer: Other }> {
    const kept = this.pages.get(key)
    let found: KeptPage | { answer: Other }
    if (kept !== undefined && kept.version === version) {
      this.events.lookup(true)
      found = kept
    } else {
      this.events.lookup(false)
      const flight = `${version} ${key}`
      let shared = this.rendering.get(flight) as Promise<KeptPage | { answer: Other }> | undefined
      if (shared === undefined) {
        shared = this.renderAndKeep(key, version, render).finally(() =>
          this.rendering.delete(flight),
        )
        this.rendering.set(flight, shared)
      }
      found = await shared
    }
    if ('answer' in found || encoding === undefined || found.encoded[encoding] !== undefined) {
      return found
    }
    return this.encode(key, found, encoding)
  }

  private async renderAndKeep<Other>(
    key: string,
    version: number,
    render: () => Promise<Rendered<Other>>,
  ): Promise<KeptPage | { answer: Other }> {
    const rendered = await render()
    if (!rendered.keep) return { answer: rendered.answer }
    const page = { status: rendered.status, body: rendered.body, encoded: {}, version }
    // The last render wins, even one begun at an older version: at worst the next read renders
    // again (see FirstPageCache.store).
    this.pages.set(key, page)
    this.events.size(this.pages.calculatedSize)
    return page
  }

  /**
   * `page` with its body in `encoding` too, compressed once for every read that asks meanwhile,
   * and kept with it while it is still the page kept under `key`.
   */
  private encode(key: string, page: KeptPage, encoding: Encoding): Promise<KeptPage> {
    const flight = `${page.version} ${encoding} ${key}`
    let shared = this.encoding.get(flight)
    if (shared === undefined) {
      shared = compressed(page.body, encoding, this.compression)
        .then((bytes) => {
          const current = this.pages.peek(key)
          const same = current !== undefined && current.body === page.body
          const base = same ? current : page
          const encoded = { ...base, encoded: { ...base.encoded, [encoding]: bytes } }
          if (same) {
            this.pages.set(key, encoded)
            this.events.size(this.pages.calculatedSize)
          }
          return encoded
        })
        .finally(() => this.encoding.delete(flight))
      this.encoding.set(flight, shared)
    }
    return shared
  }
}

type KeptPage = CachedPage & { readonly version: number }

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** How hard a kept page is compressed (see PageCache). */
export type Compression = 'thorough' | 'quick'

const LEVELS: Readonly<Record<Compression, { readonly brotli: number; readonly gzip: number }>> = {
  thorough: { brotli: 9, gzip: 9 },
  quick: { brotli: 4, gzip: 6 },
}

/** `body` in `encoding`, compressed as hard as `compression` says, off the event loop. */
export function compressed(
  body: Buffer,
  encoding: Encoding,
  compression: Compression,
): Promise<Buffer> {
  const levels = LEVELS[compression]
  return encoding === 'br' ? brotliOf(body, levels.brotli) : gzipOf(body, levels.gzip)
}

function brotliOf(body: Buffer, quality: number): Promise<Buffer> {
  return brotliAsync(body, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  })
}

function gzipOf(body: Buffer, level: number): Promise<Buffer> {
  return gzipAsync(body, { level })
}
