import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { ensureBrowserBuilt } from '../../scripts/built.mjs'
import {
  HOME_BUDGET_GZIP_KB,
  measureHomeBundle,
  measureLazyChunk,
  type ChunkSize,
  type HomeBundle,
} from '../../scripts/bench/home-bundle'

/** The packages of the browser's composition root: inversify and the HTTP adapters' schemas. */
const COMPOSITION_ROOT_PACKAGES = ['@inversifyjs/container', 'reflect-metadata', 'typebox']

describe('the production build', () => {
  // dist/, as `npm run build` leaves it: built here only when older than its sources.
  const outDir = fileURLToPath(new URL('../../dist', import.meta.url))
  let bundle: HomeBundle
  let compositionRoot: ChunkSize

  beforeAll(async () => {
    ensureBrowserBuilt()
    bundle = await measureHomeBundle(outDir)
    compositionRoot = await measureLazyChunk(outDir, 'src/composition/browser/browser.container.ts')
  }, 120_000)

  const loadedOnFirstVisit = () => new Set(bundle.chunks.flatMap((chunk) => chunk.packages))

  it('keeps formik, yup, EmailJS, dayjs and the toasts out of the first visit to /', () => {
    const loaded = loadedOnFirstVisit()
    expect(loaded).toContain('react-dom')
    expect(loaded).toContain('react-masonry-css')
    for (const lazy of ['formik', 'yup', '@emailjs/browser', 'dayjs', 'react-toastify']) {
      expect(loaded, `${lazy} loads on /`).not.toContain(lazy)
    }
  })

  it('writes a .gz and a .br of every script and stylesheet, each decoding to the file', () => {
    const files = readdirSync(join(outDir, 'assets')).filter((name) => /\.(js|css)$/.test(name))
    expect(files.length).toBeGreaterThan(5)
    for (const name of files) {
      const file = readFileSync(join(outDir, 'assets', name))
      const gzip = readFileSync(join(outDir, 'assets', `${name}.gz`))
      const br = readFileSync(join(outDir, 'assets', `${name}.br`))
      expect(gunzipSync(gzip).equals(file), `${name}.gz`).toBe(true)
      expect(brotliDecompressSync(br).equals(file), `${name}.br`).toBe(true)
      // Zopfli's gzip is smaller than zlib's strongest.
      if (file.length > 4096) expect(gzip.length).toBeLessThan(gzipSync(file, { level: 9 }).length)
    }
  })

  it('loads inversify and the HTTP adapters with the first use case, not on the first visit', () => {
    const loaded = loadedOnFirstVisit()
    for (const name of COMPOSITION_ROOT_PACKAGES) {
      expect(loaded, `${name} loads on /`).not.toContain(name)
      expect(compositionRoot.packages, `${name} is not in the composition root`).toContain(name)
    }
    expect([...loaded].filter((name) => name.startsWith('@inversifyjs/'))).toEqual([])
  })

  it('sends the first visit its code in one chunk, beside the entry and the bundler runtime', () => {
    // Compressed apart, the code split across more chunks costs the first visit more bytes.
    expect(bundle.chunks.map((chunk) => chunk.file.replace(/-[\w-]{8}\.js$/, ''))).toEqual(
      expect.arrayContaining(['assets/index', 'assets/first-visit']),
    )
    expect(bundle.chunks.length).toBeLessThanOrEqual(3)
  })

  it(`downloads at most ${HOME_BUDGET_GZIP_KB} KB of gzip JavaScript on the first visit to /`, () => {
    const kb = bundle.total.gzip / 1024
    expect(kb, `${kb.toFixed(1)} KB gzip`).toBeLessThanOrEqual(HOME_BUDGET_GZIP_KB)
  })
})
