/**
 * `npm run bench:scale`: does reading stay fast as the site grows? For 1k, 100k and 1M posts
 * (seeded straight into a fresh SQLite file, see scripts/bench/seed-posts.ts) it measures, over
 * loopback with autocannon against the real server in its own process:
 *   - the first page, GET /api/news (served from the first-page cache);
 *   - the second page, GET /api/news?cursor=… (the keyset query, near the top);
 *   - a deep page, GET /api/news?cursor=… starting 90% of the way down;
 *   - one post by id, GET /api/news/:id.
 * It prints p50/p99 latency and req/s, and checks the targets: first page and by-id within
 * 1.2× from the smallest size to the largest, and a deep page at most 2× the first page. The
 * first page is cached and a deep one cannot be, so the deep page is also set beside the second
 * page, which runs the same query: that ratio shows what depth alone costs.
 * A missed target never fails the run.
 * Options: --sizes 1000,100000,1000000  --duration S (default 3)  --connections N (default 10).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startBenchServer } from './bench/bench-server'
import { seedSqlite } from './bench/seed-posts'
import { autocannon, type AutocannonResult } from './bench/autocannon'

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,100000,1000000' },
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
  },
})
const sizes = values.sizes.split(',').map((size) => Math.max(1, Math.trunc(Number(size))))
const duration = Math.min(Math.max(Number(values.duration) || 3, 1), 60)
const connections = Math.min(Math.max(Number(values.connections) || 10, 1), 200)
const QUERIES = ['first page', 'second page', 'deep page', 'by id'] as const
type Query = (typeof QUERIES)[number]

const work = mkdtempSync(join(tmpdir(), 'newswire-scale-'))

async function main(): Promise<void> {
  const rows: { size: number; results: Record<Query, AutocannonResult> }[] = []
  for (const size of sizes) {
    const path = join(work, `scale-${size}.db`)
    const started = Date.now()
    const seeded = await seedSqlite(path, size)
    process.stdout.write(
      `Seeded ${size.toLocaleString('en')} posts in ${Date.now() - started} ms\n`,
    )
    const server = await startBenchServer({ DATABASE_URL: `sqlite:${path}`, HOST: '127.0.0.1' })
    try {
      const urls: Record<Query, string> = {
        'first page': `${server.base}/api/news`,
        'second page': `${server.base}/api/news?cursor=${encodeURIComponent(seeded.secondPageCursor)}`,
        'deep page': `${server.base}/api/news?cursor=${encodeURIComponent(seeded.deepCursor)}`,
        'by id': `${server.base}/api/news/${seeded.newestId}`,
      }
      const results = {} as Record<Query, AutocannonResult>
      for (const query of QUERIES) {
        await autocannon({ url: urls[query], connections, duration: 1 })
        results[query] = await autocannon({ url: urls[query], connections, duration })
        const { non2xx, errors } = results[query]
        if (non2xx + errors > 0)
          process.stdout.write(`  ${query}: ${non2xx} non-2xx, ${errors} errors\n`)
      }
      rows.push({ size, results })
    } finally {
      await server.stop()
      rmSync(path, { force: true })
    }
  }
  report(rows)
}

function report(rows: { size: number; results: Record<Query, AutocannonResult> }[]): void {
  process.stdout.write(
    `\nReading as the site grows (SQLite, ${connections} connections, ${duration} s each)\n`,
  )
  process.stdout.write(
    `${'posts'.padEnd(11)}${'query'.padEnd(12)}${'req/s'.padStart(9)}${'mean ms'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}\n`,
  )
  for (const { size, results } of rows) {
    for (const query of QUERIES) {
      const r = results[query]
      process.stdout.write(
        `${size.toLocaleString('en').padEnd(11)}${query.padEnd(12)}${Math.round(r.requests.average).toString().padStart(9)}${r.latency.average.toFixed(2).padStart(9)}${String(r.latency.p50).padStart(8)}${String(r.latency.p99).padStart(8)}\n`,
      )
    }
  }
  const first = rows[0]
  const last = rows.at(-1)
  if (first === undefined || last === undefined) return
  // Mean latency, not p50: at loopback speeds p50 is a whole millisecond and hides changes.
  const growth = (query: Query) =>
    last.results[query].latency.average / first.results[query].latency.average
  const mean = (query: Query) => last.results[query].latency.average
  const deep = mean('deep page') / mean('first page')
  const depth = mean('deep page') / mean('second page')
  const verdict = (met: boolean) => (met ? 'met' : 'MISSED')
  process.stdout.write(
    [
      `first page ${first.size.toLocaleString('en')} → ${last.size.toLocaleString('en')}: ${growth('first page').toFixed(2)}× (target ≤ 1.2×: ${verdict(growth('first page') <= 1.2)})`,
      `by id      ${first.size.toLocaleString('en')} → ${last.size.toLocaleString('en')}: ${growth('by id').toFixed(2)}× (target ≤ 1.2×: ${verdict(growth('by id') <= 1.2)})`,
      `deep page at ${last.size.toLocaleString('en')}: ${deep.toFixed(2)}× the cached first page (target ≤ 2×: ${verdict(deep <= 2)}), ${depth.toFixed(2)}× the second page`,
      '',
    ].join('\n'),
  )
}

main()
  .catch((error: unknown) => {
    process.stderr.write(
      `bench:scale failed: ${error instanceof Error ? error.message : String(error)}\n`,
    )
    process.exitCode = 1
  })
  .finally(() => rmSync(work, { recursive: true, force: true }))
