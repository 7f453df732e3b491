/**
 * `npm run bench:scale`: does reading stay fast as the site grows? For 1k, 100k and 1M posts
 * (add 10M with --sizes), on SQLite and on PostgreSQL, seeded straight into the database with
 * searchable text, revisions and the search index (scripts/bench/seed-posts.ts,
 * scripts/bench/seed-postgres.ts), it measures over loopback with autocannon against the real
 * server in its own process, while a post is published every second (as a busy site is):
 *   - the first page, GET /api/news, as visitors get it (the first-page cache, retired by each
 *     write);
 *   - top pages, GET /api/news?cursor=… starting among the newest 1% of posts: the list query
 *     near the top, as the first page costs whenever a write has retired the cached one;
 *   - deep pages, GET /api/news?cursor=… starting 85% to 95% of the way down;
 *   - posts by id, GET /api/news/:id, spread over the whole table;
 *   - a search, GET /api/news?q=WORD, 20 words of middling frequency in turn;
 *   - the feed, /feed.xml, the sitemap index, /sitemap.xml, and the sitemap's files,
 *     /sitemaps/N.xml (up to 8 spread over the site in turn, the newest among them), as
 *     crawlers ask (gzip); before that row, each of those files is asked once, one after
 *     another, and the server's CPU per file built (read, written, compressed) is printed.
 * Every request of the walking rows asks for a URL the requests just before it did not, so no
 * cache of one answer and no sharing of identical reads can flatter them.
 * It prints mean, p50 and p99 latency, req/s and server CPU per request, and checks the targets
 * by CPU (by mean latency where the platform gives no CPU figure): each row within 1.2× from the
 * smallest size to the largest (a sitemap file from the smallest size whose files are full,
 * 50,000 URLs: below it a file holds fewer), and a deep cursor at most 2× the first page's query.
 * A missed target never fails the run.
 * Options: --sizes 1000,100000,1000000  --engine sqlite|postgres|both (default: both when
 * BENCH_POSTGRES_URL or TEST_POSTGRES_URL names a database, else sqlite)  --duration S (default 3)
 * --connections N (default 10)  --writes N a second (default 1; 0: none).
 * PostgreSQL runs in a schema of its own in that database, dropped after each size.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { cpuPerRequest, startBenchServer, type BenchServer } from './bench/bench-server'
import { wordOfRank } from './bench/news-text'
import { benchOptions } from './bench/options'
import { runBench } from './bench/run-bench'
import { seedPostgres } from './bench/seed-postgres'
import { seedSqlite, type Seeded } from './bench/seed-posts'
import {
  autocannon,
  walking,
  type AutocannonRequest,
  type AutocannonResult,
} from './bench/autocannon'

const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL
const values = benchOptions(
  { duration: [3, 1, 60], connections: [10, 1, 200], writes: [1, 0, 100] },
  {
    texts: {
      sizes: '1000,100000,1000000',
      engine: POSTGRES_URL === undefined ? 'sqlite' : 'both',
    },
  },
)
const sizes = values.sizes.split(',').map((size) => Math.max(100, Math.trunc(Number(size)) || 100))
const { duration, connections, writes: writesPerSecond } = values
const ENGINES = {
  sqlite: ['SQLite'],
  postgres: ['PostgreSQL'],
  both: ['SQLite', 'PostgreSQL'],
} as const
const engines: readonly Engine[] = enginesOf(values.engine)
if (engines.includes('PostgreSQL') && POSTGRES_URL === undefined) {
  throw new Error('PostgreSQL needs BENCH_POSTGRES_URL (or TEST_POSTGRES_URL)')
}
type Engine = 'SQLite' | 'PostgreSQL'

function enginesOf(option: string): readonly Engine[] {
  const named = (ENGINES as Record<string, readonly Engine[] | undefined>)[option]
  if (named === undefined) throw new Error('--engine is sqlite, postgres or both')
  return named
}

const QUERIES = [
  'first page',
  'top pages',
  'deep pages',
  'by id',
  'search',
  'feed',
  'sitemap index',
  'sitemap file',
] as const
type Query = (typeof QUERIES)[number]
/** autocannon's figures, with the server's CPU µs per request where the platform tells it. */
type Measured = AutocannonResult & { readonly cpuUs: number | undefined }
interface Row {
  readonly engine: Engine
  readonly size: number
  readonly seedMs: number
  readonly results: Record<Query, Measured>
  /** The server's CPU µs to build one of the walked sitemap files, the first time it is asked. */
  readonly fileBuildUs: number | undefined
}

/** How many different URLs a walking query goes through before it starts again. */
const WALK = 1000
/** The sitemap's bound on a file's URLs, and so the posts a file covers. */
const FILE_POSTS = 50_000
/** How many of the sitemap's files the file row walks: a few, so that the page cache holds them. */
const FILES_WALKED = 8
const CRAWLER = { 'accept-encoding': 'gzip' }

/** `count` indexes spread evenly over [from, to), at most WALK of them. */
function spread(from: number, to: number, most = WALK): number[] {
  const count = Math.max(1, Math.min(most, to - from))
  return Array.from({ length: count }, (_, step) => from + Math.floor((step * (to - from)) / count))
}

/** The sitemap files the file row walks, spread over the site, the newest among them. */
function filesWalked(size: number): number[] {
  // Post i is numbered i + 1; file n holds the numbers (n − 1)·50,000 to n·50,000 − 1.
  const newest = Math.floor(size / FILE_POSTS) + 1
  return [...new Set([...spread(1, newest, FILES_WALKED - 1), newest])]
}

/** What each query asks for, at a table of `size` posts (index 0 is the oldest post). */
function requestsFor(size: number, seeded: Seeded): Record<Query, AutocannonRequest[]> {
  const page = (index: number) =>
    `/api/news?cursor=${encodeURIComponent(seeded.cursorAfter(index))}`
  // The list is newest first: a page 90% deep starts at the post made 10% of the way up.
  const top = spread(Math.floor(size * 0.99), size - 1)
  const deep = spread(Math.floor(size * 0.05), Math.floor(size * 0.15))
  const ids = spread(0, size)
  const files = filesWalked(size)
  const crawled = (requests: AutocannonRequest[]) =>
    requests.map((request) => ({ ...request, headers: CRAWLER }))
  return {
    'first page': [{ method: 'GET', path: '/api/news' }],
    'top pages': walking(top.map(page)),
    'deep pages': walking(deep.map(page)),
    'by id': walking(ids.map((index) => `/api/news/${seeded.idAt(index)}`)),
    search: walking(
      spread(0, 20).map((n) => `/api/news?q=${encodeURIComponent(wordOfRank(40 + n))}`),
    ),
    feed: crawled([{ method: 'GET', path: '/feed.xml' }]),
    'sitemap index': crawled([{ method: 'GET', path: '/sitemap.xml' }]),
    'sitemap file': crawled(walking(files.map((n) => `/sitemaps/${n}.xml`))),
  }
}

/** Publishes a post through the API `perSecond` times a second until stopped. */
function publishing(base: string, perSecond: number): () => Promise<void> {
  if (perSecond <= 0) return async () => undefined
  let count = 0
  let last = Promise.resolve()
  const timer = setInterval(() => {
    count += 1
    last = fetch(`${base}/api/news`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `Breaking ${count}`,
        body: 'News while the benchmark reads.',
        author: 'Bench',
      }),
    }).then(async (response) => {
      if (response.status !== 201) throw new Error(`a write answered ${response.status}`)
      await response.arrayBuffer()
    })
  }, 1000 / perSecond)
  return async () => {
    clearInterval(timer)
    await last
  }
}

const work = mkdtempSync(join(tmpdir(), 'newswire-scale-'))

/**
 * Asks for each of the walked sitemap files once, one after another, as a crawler's first visit
 * does: answers the server's CPU µs per file built (read, written and compressed).
 */
async function buildFiles(server: BenchServer, size: number): Promise<number | undefined> {
  const before = server.cpuMs()
  const files = filesWalked(size)
  for (const n of files) {
    const response = await fetch(`${server.base}/sitemaps/${n}.xml`, { headers: CRAWLER })
    if (response.status !== 200) throw new Error(`/sitemaps/${n}.xml answered ${response.status}`)
    await response.arrayBuffer()
  }
  const after = server.cpuMs()
  return before === undefined || after === undefined
    ? undefined
    : ((after - before) * 1000) / files.length
}

async function measure(server: BenchServer, size: number, seeded: Seeded) {
  const requests = requestsFor(size, seeded)
  const results = {} as Record<Query, Measured>
  let fileBuildUs: number | undefined
  for (const query of QUERIES) {
    // The files are built once and kept until a post in them changes: measured apart.
    if (query === 'sitemap file') fileBuildUs = await buildFiles(server, size)
    const load = { url: server.base, connections, requests: requests[query] }
    await autocannon({ ...load, duration: 1 })
    const stopWriting = publishing(server.base, writesPerSecond)
    const cpuBefore = server.cpuMs()
    const result = await autocannon({ ...load, duration })
    const cpuAfter = server.cpuMs()
    await stopWriting()
    results[query] = { ...result, cpuUs: cpuPerRequest(cpuBefore, cpuAfter, result) }
    const { non2xx, errors } = results[query]
    if (non2xx + errors > 0)
      process.stdout.write(`  ${query}: ${non2xx} non-2xx, ${errors} errors\n`)
  }
  return { results, fileBuildUs }
}

async function onSqlite(size: number): Promise<Row> {
  const path = join(work, `scale-${size}.db`)
  const started = Date.now()
  const seeded = await seedSqlite(path, size, { searchable: true })
  const seedMs = Date.now() - started
  const server = await startBenchServer({ DATABASE_URL: `sqlite:${path}`, HOST: '127.0.0.1' })
  try {
    return { engine: 'SQLite', size, seedMs, ...(await measure(server, size, seeded)) }
  } finally {
    await server.stop()
    rmSync(path, { force: true })
    rmSync(`${path}-wal`, { force: true })
    rmSync(`${path}-shm`, { force: true })
  }
}

async function onPostgres(size: number): Promise<Row> {
  const started = Date.now()
  let reported = 0
  const schema = await seedPostgres(POSTGRES_URL ?? '', size, (written) => {
    if (written - reported < 1_000_000) return
    reported = written
    process.stdout.write(`  ${written.toLocaleString('en')} posts in ${Date.now() - started} ms\n`)
  })
  const seedMs = Date.now() - started
  try {
    const server = await startBenchServer({ DATABASE_URL: schema.url, HOST: '127.0.0.1' })
    try {
      return { engine: 'PostgreSQL', size, seedMs, ...(await measure(server, size, schema)) }
    } finally {
      await server.stop()
    }
  } finally {
    await schema.drop()
  }
}

async function main(): Promise<void> {
  const rows: Row[] = []
  for (const engine of engines) {
    for (const size of sizes) {
      const row = await (engine === 'SQLite' ? onSqlite(size) : onPostgres(size))
      process.stdout.write(
        `${engine}: seeded ${size.toLocaleString('en')} posts in ${row.seedMs} ms\n`,
      )
      rows.push(row)
    }
  }
  for (const engine of engines) report(rows.filter((row) => row.engine === engine))
}

function report(rows: readonly Row[]): void {
  const engine = rows[0]?.engine
  if (engine === undefined) return
  const writes = writesPerSecond > 0 ? `, ${writesPerSecond} write/s` : ''
  process.stdout.write(
    `\nReading as the site grows (${engine}, ${connections} connections, ${duration} s each${writes})\n`,
  )
  process.stdout.write(
    `${'posts'.padEnd(12)}${'query'.padEnd(15)}${'req/s'.padStart(8)}${'mean ms'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'CPU µs/req'.padStart(12)}\n`,
  )
  for (const { size, results } of rows) {
    for (const query of QUERIES) {
      const r = results[query]
      process.stdout.write(
        `${size.toLocaleString('en').padEnd(12)}${query.padEnd(15)}${Math.round(r.requests.average).toString().padStart(8)}${r.latency.average.toFixed(2).padStart(9)}${String(r.latency.p50).padStart(8)}${String(r.latency.p99).padStart(8)}${(r.cpuUs === undefined ? '-' : Math.round(r.cpuUs).toString()).padStart(12)}\n`,
      )
    }
  }
  for (const { size, fileBuildUs } of rows) {
    if (fileBuildUs === undefined) continue
    process.stdout.write(
      `${size.toLocaleString('en').padEnd(12)}a sitemap file built (read, written, compressed) once after its posts change: ${Math.round(fileBuildUs / 1000)} ms CPU\n`,
    )
  }
  const first = rows[0]
  const last = rows.at(-1)
  if (first === undefined || last === undefined) return
  // Server CPU per request where the platform reports it: at loopback speeds even mean latency
  // rounds (0.04 → 0.05 ms reads as 1.25×), and p50 is a whole millisecond. Else mean latency.
  const cost = (row: Row, query: Query) =>
    row.results[query].cpuUs ?? row.results[query].latency.average * 1000
  const measure = rows.every((row) =>
    QUERIES.every((query) => row.results[query].cpuUs !== undefined),
  )
    ? 'server CPU per request'
    : 'mean latency'
  const verdict = (met: boolean) => (met ? 'met' : 'MISSED')
  const at = last.size.toLocaleString('en')
  const lines = [`Judged by ${measure} (${engine}):`]
  for (const query of QUERIES) {
    // Below 50,000 posts a file holds fewer URLs than a full one: compare full files only.
    const from = query === 'sitemap file' ? rows.find((row) => row.size >= FILE_POSTS * 2) : first
    if (from === undefined || from === last) continue
    const growth = cost(last, query) / cost(from, query)
    lines.push(
      `${query.padEnd(14)} ${from.size.toLocaleString('en')} → ${at}: ${growth.toFixed(2)}× (target ≤ 1.2×: ${verdict(growth <= 1.2)})`,
    )
  }
  const depth = cost(last, 'deep pages') / cost(last, 'top pages')
  lines.push(
    `deep page at ${at} against the first page's query (a page at the top): ${depth.toFixed(2)}× (target ≤ 2×: ${verdict(depth <= 2)})`,
    '',
  )
  process.stdout.write(lines.join('\n'))
}

runBench('bench:scale', main, work)
