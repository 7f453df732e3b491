/**
 * `npm run bench:bundle`: the compressed size of the JavaScript a first visit to '/' downloads,
 * from a fresh production build of the browser's app in a scratch folder. The target is 100 KB
 * gzip; it reports and never fails. It also prints the composition root's chunk, which loads
 * with the first use case a page calls.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  buildBrowserApp,
  HOME_BUDGET_GZIP_KB,
  measureHomeBundle,
  measureLazyChunk,
  type ChunkSize,
} from './bench/home-bundle'
import { runBench } from './bench/run-bench'

const COMPOSITION_ROOT = 'src/composition/browser/browser.container.ts'
const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7)
const row = (name: string, size: Omit<ChunkSize, 'file' | 'packages'>) =>
  `${name.padEnd(44)}${kb(size.bytes)}${kb(size.gzip)}${kb(size.brotli)}`

async function main(outDir: string): Promise<void> {
  buildBrowserApp(outDir)
  const { chunks, total } = await measureHomeBundle(outDir)
  const root = await measureLazyChunk(outDir, COMPOSITION_ROOT)

  console.log('\nJavaScript loaded by a first visit to / (KB = 1024 bytes)')
  console.log(
    `${'chunk'.padEnd(44)}${'raw'.padStart(7)}${'gzip'.padStart(7)}${'brotli'.padStart(7)}`,
  )
  for (const chunk of chunks) console.log(row(chunk.file, chunk))
  console.log(row('total', total))
  const verdict = total.gzip <= HOME_BUDGET_GZIP_KB * 1024 ? 'met' : 'MISSED'
  console.log(
    `target ${HOME_BUDGET_GZIP_KB} KB gzip: ${verdict} (${kb(total.gzip).trim()} KB; npm start serves brotli to browsers that accept it)`,
  )
  console.log('\nLoaded with the first use case a page calls')
  console.log(row(root.file, root))
  console.log(`  with ${root.packages.filter((name) => name !== 'src').join(', ')}`)
}

const outDir = mkdtempSync(join(tmpdir(), 'newswire-bundle-'))
runBench('bench:bundle', () => main(outDir), outDir)
