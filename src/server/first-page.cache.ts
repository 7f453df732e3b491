import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

export interface CachedPage {
  /** The serialised JSON array. */
  readonly body: string
  /** The `Link` header, when more pages remain. */
  readonly link: string | undefined
}

export type Encoding = 'br' | 'gzip'

interface Entry {
  readonly page: CachedPage
  readonly encoded: Map<Encoding, Buffer>
}

/**
 * The default first page of GET /api/news, the most asked-for answer, kept serialised (and
 * compressed on demand) until the next write. A generation number stops a read that began
 * before a write from storing the page it read.
 */
export class FirstPageCache {
  private entry: Entry | undefined
  private generation = 0

  get(): CachedPage | undefined {
    return this.entry?.page
  }

  /** Call before reading the store; pass the answer to `store`. */
  begin(): number {
    return this.generation
  }

  store(generation: number, page: CachedPage): void {
    if (generation === this.generation) this.entry = { page, encoded: new Map() }
  }

  /** The cached body in `encoding`, compressed once per cached page. */
  encoded(encoding: Encoding): Buffer | undefined {
    const entry = this.entry
    if (entry === undefined) return undefined
    let bytes = entry.encoded.get(encoding)
    if (bytes === undefined) {
      const { body } = entry.page
      bytes = encoding === 'br' ? brotli(body) : gzipSync(body, { level: 9 })
      entry.encoded.set(encoding, bytes)
    }
    return bytes
  }

  clear(): void {
    this.generation += 1
    this.entry = undefined
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
