import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

interface ManifestChunk {
  readonly file: string
  readonly src?: string
  readonly isEntry?: boolean
  readonly imports?: readonly string[]
}

export interface ChunkSize {
  readonly file: string
  readonly bytes: number
  readonly gzip: number
  readonly brotli: number
  /** The packages (or `src`) whose code the chunk holds, from its source map. */
  readonly packages: readonly string[]
}

export interface HomeBundle {
  readonly chunks: readonly ChunkSize[]
  readonly total: { readonly bytes: number; readonly gzip: number; readonly brotli: number }
}

/**
 * The JavaScript a first visit to '/' downloads: the entry chunk and every chunk it imports
 * statically, as the build manifest lists them. Lazy routes and the first toast load later.
 */
export async function measureHomeBundle(dist: string): Promise<HomeBundle> {
  const manifest = JSON.parse(
    await readFile(join(dist, '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)
  if (entry === undefined) throw new Error('the build manifest has no entry')

  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    for (const next of manifest[key]?.imports ?? []) visit(next)
  }
  visit(entry[0])

  const chunks: ChunkSize[] = []
  for (const key of seen) {
    const file = manifest[key]?.file
    if (file === undefined || !file.endsWith('.js')) continue
    const code = await readFile(join(dist, file))
    chunks.push({
      file,
      bytes: code.length,
      gzip: gzipSync(code, { level: 9 }).length,
      brotli: brotliCompressSync(code, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length,
      packages: await packagesOf(join(dist, `${file}.map`)),
    })
  }
  const sum = (pick: (chunk: ChunkSize) => number) => chunks.reduce((a, c) => a + pick(c), 0)
  return {
    chunks,
    total: { bytes: sum((c) => c.bytes), gzip: sum((c) => c.gzip), brotli: sum((c) => c.brotli) },
  }
}

async function packagesOf(mapFile: string): Promise<string[]> {
  const text = await readFile(mapFile, 'utf8').catch(() => undefined)
  // Vite's own small helpers may come without a map.
  if (text === undefined) return ['(no source map)']
  const map = JSON.parse(text) as { sources: string[] }
  const names = map.sources.map((source) => {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)
    return match?.[1] ?? 'src'
  })
  return [...new Set(names)].sort()
}
