/**
 * Prints the compressed size of the JavaScript a first visit to '/' downloads, after a fresh
 * production build. The target is 120 KB; it reports and never fails.
 */
import { execFileSync } from 'node:child_process'
import { measureHomeBundle } from './bench/home-bundle'

const TARGET_KB = 120
const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7)

execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' })
const { chunks, total } = await measureHomeBundle('dist')

console.log('\nJavaScript loaded by a first visit to / (KB = 1024 bytes)')
console.log(`${'chunk'.padEnd(40)}${'raw'.padStart(7)}${'gzip'.padStart(7)}${'brotli'.padStart(7)}`)
for (const chunk of chunks) {
  console.log(`${chunk.file.padEnd(40)}${kb(chunk.bytes)}${kb(chunk.gzip)}${kb(chunk.brotli)}`)
}
console.log(`${'total'.padEnd(40)}${kb(total.bytes)}${kb(total.gzip)}${kb(total.brotli)}`)
const verdict = (bytes: number) => (bytes <= TARGET_KB * 1024 ? 'met' : 'MISSED')
console.log(
  `target ${TARGET_KB} KB compressed: gzip ${verdict(total.gzip)}, brotli ${verdict(total.brotli)} (npm start serves brotli to browsers that accept it)`,
)
