/**
 * `npm run bench:scale`: does reading stay fast as the site grows? For 1k, 100k and 1M posts
 * (seeded straight into a fresh SQLite file, see scripts/bench/seed-posts.ts) it measures, over
 * loopback with autocannon against the real server in its own process:
 *   - the first page, GET /api/news, as visitors get it (served from the first-page cache);
 *   - top pages, GET /api/news?cursor=… starting among the newest 1% of posts: the list query
 *     near the top, as the first page costs whenever a write has retired the cached one;
 *   - deep pages, GET /api/news?cursor=… starting 85% to 95% of the way down;
 *   - posts by id, GET /api/news/:id, spread over the whole table.
 * Every request of the last three asks for a URL the requests just before it did not (each walks
 * up to 1,000 cursors or ids in turn), so no cache of one answer and no sharing of identical reads
 * can flatter them: each is a query of its own.
 * It prints mean, p50 and p99 latency, req/s and server CPU per request, and checks the targets by
 * CPU (by mean latency where the platform gives no CPU figure): first page and by-id within 1.2×
 * from the smallest size to the largest, and a deep cursor at most 2× the first page's query (a
 * page at the top through the same keyset query), which is what depth costs. It also prints a
 * page against the cached first page, which is what the cache saves.
 * A missed target never fails the run.
 * Options: --sizes 1000,100000,1000000  --duration S (default 3)  --connections N (default 10).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { cpuPerRequest, startBenchServer } from './bench/bench-server'
import { runBench } from './bench/run-bench'
import { seedSqlite, type Seeded } from './bench/seed-posts'
import {
  autocannon,
  walking,
  type AutocannonRequest,
  type AutocannonResult,
} from './bench/autocannon'

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,100000,1000000' },
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
  },
})
const sizes = values.sizes.split(',').map((size) => Math.max(100, Math.trunc(Number(size)) || 100))
const duration = Math.min(Math.max(Number(values.duration) || 3, 1), 60)
const connections = Math.min(Math.max(Number(values.connections) || 10, 1), 200)
const QUERIES = ['first page', 'top pages', 'deep pages', 'by id'] as const
type Query = (typeof QUERIES)[number]
/** autocannon's figures, with the server's CPU µs per request where the platform tells it. */
type Measured = AutocannonResult & { readonly cpuUs: number | undefined }

/** How many different URLs a walking query goes through before it starts again. */
const WALK = 1000

/** `count` indexes spread evenly over [from, to), at most WALK of them. */
function spread(from: number, to: number): number[] {
  const count = Math.max(1, Math.min(WALK, to - from))
  return Array.from({ length: count }, (_, step) => from + Math.floor((step * (to - from)) / count))
}

/** What each query asks for, at a table of `size` posts (index 0 is the oldest post). */
function requestsFor(size: number, seeded: Seeded): Record<Query, AutocannonRequest[]> {
  const page = (index: number) =>
    `/api/news?cursor=${encodeURIComponent(seeded.cursorAfter(index))}`
  // The list is newest first: a page 90% deep starts at the post made 10% of the way up.
  const top = spread(Math.floor(size * 0.99), size - 1)
  const deep = spread(Math.floor(size * 0.05), Math.floor(size * 0.15))
  const ids = spread(0, size)
  return {
    'first page': [{ method: 'GET', path: '/api/news' }],
    'top pages': walking(top.map(page)),
    'deep pages': walking(deep.map(page)),
    'by id': walking(ids.map((index) => `/api/news/${seeded.idAt(index)}`)),
  }
}

const work = mkdtempSync(join(tmpdir(), 'newswire-scale-'))

async function main(): Promise<void> {
  const rows: { size: number; results: Record<Query, Measured> }[] = []
  for (const size of sizes) {
    const path = join(work, `scale-${size}.db`)
    const started = Date.now()
    const seeded = await seedSqlite(path, size)
    process.stdout.write(
      `Seeded ${size.toLocaleString('en')} posts in ${Date.now() - started} ms\n`,
    )
    const server = await startBenchServer({ DATABASE_URL: `sqlite:${path}`, HOST: '127.0.0.1' })
    try {
      const requests = requestsFor(size, seeded)
      const results = {} as Record<Query, Measured>
      for (const query of QUERIES) {
        const load = { url: server.base, connections, requests: requests[query] }
        await autocannon({ ...load, duration: 1 })
        const cpuBefore = server.cpuMs()
        const result = await autocannon({ ...load, duration })
        results[query] = { ...result, cpuUs: cpuPerRequest(cpuBefore, server.cpuMs(), result) }
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

function report(rows: { size: number; results: Record<Query, Measured> }[]): void {
  process.stdout.write(
    `\nReading as the site grows (SQLite, ${connections} connections, ${duration} s each)\n`,
  )
  process.stdout.write(
    `${'posts'.padEnd(11)}${'query'.padEnd(12)}${'req/s'.padStart(9)}${'mean ms'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'CPU µs/req'.padStart(12)}\n`,
  )
  for (const { size, results } of rows) {
    for (const query of QUERIES) {
      const r = results[query]
      process.stdout.write(
        `${size.toLocaleString('en').padEnd(11)}${query.padEnd(12)}${Math.round(r.requests.average).toString().padStart(9)}${r.latency.average.toFixed(2).padStart(9)}${String(r.latency.p50).padStart(8)}${String(r.latency.p99).padStart(8)}${(r.cpuUs === undefined ? '-' : Math.round(r.cpuUs).toString()).padStart(12)}\n`,
      )
    }
  }
  const first = rows[0]
  const last = rows.at(-1)
  if (first === undefined || last === undefined) return
  // Server CPU per request where the platform reports it: at loopback speeds even mean latency
  // rounds (0.04 → 0.05 ms reads as 1.25×), and p50 is a whole millisecond. Else mean latency.
  const cost = (row: (typeof rows)[number], query: Query) =>
    row.results[query].cpuUs ?? row.results[query].latency.average * 1000
  const measure = rows.every((row) =>
    QUERIES.every((query) => row.results[query].cpuUs !== undefined),
  )
    ? 'server CPU per request'
    : 'mean latency'
  const growth = (query: Query) => cost(last, query) / cost(first, query)
  const depth = cost(last, 'deep pages') / cost(last, 'top pages')
  const cached = cost(last, 'deep pages') / cost(last, 'first page')
  const verdict = (met: boolean) => (met ? 'met' : 'MISSED')
  const at = last.size.toLocaleString('en')
  process.stdout.write(
    [
      `Judged by ${measure}:`,
      `first page ${first.size.toLocaleString('en')} → ${at}: ${growth('first page').toFixed(2)}× (target ≤ 1.2×: ${verdict(growth('first page') <= 1.2)})`,
      `by id      ${first.size.toLocaleString('en')} → ${at}: ${growth('by id').toFixed(2)}× (target ≤ 1.2×: ${verdict(growth('by id') <= 1.2)})`,
      `deep page at ${at} against the first page's query (a page at the top): ${depth.toFixed(2)}× (target ≤ 2×: ${verdict(depth <= 2)})`,
      `for scale, a page through the query against the cached first page: ${cached.toFixed(2)}× (what the cache saves, not what depth costs)`,
      '',
    ].join('\n'),
  )
}

runBench('bench:scale', main, work)
