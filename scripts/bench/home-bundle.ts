import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** The most gzip JavaScript a first visit to '/' may download, in KB of 1024 bytes (issue 11). */
export const HOME_BUDGET_GZIP_KB = 100

/**
 * Builds the browser's app alone into `outDir`, in its own process and as for production, so
 * that measuring it leaves dist/ and the server's render entry alone.
 */
export function buildBrowserApp(outDir: string): void {
  const script = fileURLToPath(new URL('./build-browser.ts', import.meta.url))
  execFileSync('npx', ['tsx', script, outDir], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
}

interface ManifestChunk {
  readonly file: string
  readonly src?: string
  readonly isEntry?: boolean
  readonly imports?: readonly string[]
  readonly dynamicImports?: readonly string[]
}

type Manifest = Record<string, ManifestChunk>

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
  const manifest = await readManifest(dist)
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
    chunks.push(await measureChunk(dist, file))
  }
  const sum = (pick: (chunk: ChunkSize) => number) => chunks.reduce((a, c) => a + pick(c), 0)
  return {
    chunks,
    total: { bytes: sum((c) => c.bytes), gzip: sum((c) => c.gzip), brotli: sum((c) => c.brotli) },
  }
}

/**
 * The chunk that starts at source module `src` (as the manifest names it, e.g.
 * 'src/composition/browser/browser.container.ts') when the entry imports it dynamically:
 * code that loads on demand rather than on the first visit. It counts with the chunks it
 * imports that the first visit has not loaded: code it shares with another chunk loaded on
 * demand (the live feed's adapter shares the wire schemas) comes with it.
 */
export async function measureLazyChunk(dist: string, src: string): Promise<ChunkSize> {
  const manifest = await readManifest(dist)
  const importers = Object.values(manifest).filter((chunk) => chunk.dynamicImports?.includes(src))
  const file = manifest[src]?.file
  if (file === undefined || importers.length === 0) {
    throw new Error(`${src} is not a chunk that loads on demand`)
  }
  const firstVisit = new Set((await measureHomeBundle(dist)).chunks.map((chunk) => chunk.file))
  const shared = (manifest[src]?.imports ?? [])
    .map((key) => manifest[key]?.file)
    .filter((name): name is string => name?.endsWith('.js') === true && !firstVisit.has(name))
  const chunks = await Promise.all([file, ...shared].map((name) => measureChunk(dist, name)))
  const sum = (pick: (chunk: ChunkSize) => number) => chunks.reduce((a, c) => a + pick(c), 0)
  return {
    file,
    bytes: sum((chunk) => chunk.bytes),
    gzip: sum((chunk) => chunk.gzip),
    brotli: sum((chunk) => chunk.brotli),
    packages: [...new Set(chunks.flatMap((chunk) => chunk.packages))].sort(),
  }
}

async function readManifest(dist: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest
}

/**
 * A chunk's size as sent: its .gz and .br from the build (see vite.config.ts), which the server
 * sends as they are; compressed here at the strongest settings when the build wrote none.
 */
async function measureChunk(dist: string, file: string): Promise<ChunkSize> {
  const code = await readFile(join(dist, file))
  const sent = (suffix: string) =>
    readFile(join(dist, `${file}${suffix}`)).then(
      (compressed) => compressed.length,
      () => undefined,
    )
  return {
    file,
    bytes: code.length,
    gzip: (await sent('.gz')) ?? gzipSync(code, { level: 9 }).length,
    brotli:
      (await sent('.br')) ??
      brotliCompressSync(code, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length,
    packages: await packagesOf(join(dist, `${file}.map`)),
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
