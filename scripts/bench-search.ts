/**
 * `npm run bench:search`: how fast is full-text search, GET /api/news?q=, over 100,000 posts
 * on SQLite? The posts are seeded straight into a fresh SQLite file with varied text and their
 * search index (scripts/bench/seed-posts.ts, scripts/bench/news-text.ts: words follow Zipf's
 * law, as in real text). It then measures, over loopback with autocannon against the real
 * server in its own process, the first page of:
 *   - one word of middling frequency ('museum', 'hospital', …);
 *   - two such words;
 *   - a rare word (a made-up name in a few dozen posts);
 *   - a common word ('the', 'of', … : in nearly every post);
 *   - a quoted two-word phrase, without a prefix operator ("city council");
 * and the fifth page of a common word, through its Link cursor. Each row walks 20 different
 * queries in turn; no cache holds search results, so each request is a query of its own.
 * One connection by default: the target is how long one search takes, which requests queued
 * behind each other on the server's one thread would hide. It prints req/s, mean, p50 and p99
 * latency and server CPU per request, and checks the target, p50 ≤ 20 ms for every row. A
 * missed target never fails the run.
 * Options: --size 100000  --duration S (default 3)  --connections N (default 1).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import SQLite from 'better-sqlite3'
import { parseSearchQuery } from '@/domain/rules/search-query.rules'
import {
  autocannon,
  walking,
  type AutocannonRequest,
  type AutocannonResult,
} from './bench/autocannon'
import { cpuPerRequest, startBenchServer } from './bench/bench-server'
import { wordOfRank } from './bench/news-text'
import { benchOptions } from './bench/options'
import { runBench } from './bench/run-bench'
import { seedSqlite } from './bench/seed-posts'

const { size, duration, connections } = benchOptions({
  size: [100_000, 1000, 10_000_000],
  duration: [3, 1, 60],
  connections: [1, 1, 200],
})

const TARGET_P50_MS = 20
const VARIANTS = 20
/** Which page of a common word the paging row reads. */
const DEEP_PAGE = 5

const range = (count: number) => Array.from({ length: count }, (_, index) => index)

/** The queries each row walks through, as typed into the search field. */
const QUERIES = {
  'one word': range(VARIANTS).map((n) => wordOfRank(40 + n)),
  'two words': range(VARIANTS).map((n) => `${wordOfRank(20 + n)} ${wordOfRank(60 + n)}`),
  'rare word': range(VARIANTS).map((n) => wordOfRank(20_000 + n * 37)),
  'common word': range(VARIANTS).map((n) => wordOfRank(n % 6)),
  phrase: range(VARIANTS).map((n) => `"${wordOfRank(6 + n)} ${wordOfRank(14 + n)}"`),
} as const
type Row = keyof typeof QUERIES | `common word, page ${typeof DEEP_PAGE}`
type Measured = AutocannonResult & {
  readonly cpuUs: number | undefined
  /** The median number of posts the row's queries match. */
  readonly matches: number
}

const searchPath = (q: string) => `/api/news?q=${encodeURIComponent(q)}`

/** How many live posts hold every word of `q`, asked of the index itself. */
function countMatches(databasePath: string, queries: readonly string[]): number {
  const db = new SQLite(databasePath, { readonly: true })
  try {
    const count = db.prepare('select count(*) as n from news_search where news_search match ?')
    const counts = queries.map((q) => {
      const parsed = parseSearchQuery(q)
      if (!parsed.ok) throw new Error(`the bench's query ${q} is refused`)
      const match = parsed.value.terms.map((term) => `"${term}"`).join(' AND ')
      return (count.get(match) as { n: number }).n
    })
    return counts.sort((a, b) => a - b)[Math.floor(counts.length / 2)] ?? 0
  } finally {
    db.close()
  }
}

/** The URL of page `page` of a search, found by following its Link headers. */
async function pageUrl(base: string, q: string, page: number): Promise<string> {
  let path = searchPath(q)
  for (let reached = 1; reached < page; reached += 1) {
    const response = await fetch(`${base}${path}`)
    await response.arrayBuffer()
    const next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1]
    if (next === undefined) throw new Error(`${q} has fewer than ${page} pages`)
    path = next
  }
  return path
}

const work = mkdtempSync(join(tmpdir(), 'newswire-search-'))

async function main(): Promise<void> {
  const path = join(work, 'search.db')
  const started = Date.now()
  await seedSqlite(path, size, { searchable: true })
  process.stdout.write(
    `Seeded ${size.toLocaleString('en')} searchable posts in ${Date.now() - started} ms\n`,
  )
  const matches = new Map<Row, number>()
  for (const [row, queries] of Object.entries(QUERIES)) {
    matches.set(row as Row, countMatches(path, queries))
  }
  const deepRow: Row = `common word, page ${DEEP_PAGE}`
  matches.set(deepRow, matches.get('common word') ?? 0)

  const server = await startBenchServer({ DATABASE_URL: `sqlite:${path}`, HOST: '127.0.0.1' })
  try {
    const requests = new Map<Row, AutocannonRequest[]>()
    for (const [row, queries] of Object.entries(QUERIES)) {
      requests.set(row as Row, walking(queries.map(searchPath)))
    }
    const deep = []
    for (const q of QUERIES['common word']) deep.push(await pageUrl(server.base, q, DEEP_PAGE))
    requests.set(deepRow, walking(deep))

    const results = new Map<Row, Measured>()
    for (const [row, rowRequests] of requests) {
      const load = { url: server.base, connections, requests: rowRequests }
      await autocannon({ ...load, duration: 1 })
      const cpuBefore = server.cpuMs()
      const result = await autocannon({ ...load, duration })
      const cpuUs = cpuPerRequest(cpuBefore, server.cpuMs(), result)
      results.set(row, { ...result, cpuUs, matches: matches.get(row) ?? 0 })
      if (result.non2xx + result.errors > 0) {
        process.stdout.write(`  ${row}: ${result.non2xx} non-2xx, ${result.errors} errors\n`)
      }
    }
    report(results)
  } finally {
    await server.stop()
  }
}

/**
 * The mean time a request took, from the rate (Little's law: connections ÷ req/s): autocannon
 * counts latency in whole milliseconds, which a search under one rounds to 0.
 */
function perRequestMs(result: Measured): number {
  return result.requests.average > 0 ? (connections * 1000) / result.requests.average : 0
}

function report(results: ReadonlyMap<Row, Measured>): void {
  process.stdout.write(
    `\nSearching ${size.toLocaleString('en')} posts (SQLite, ${connections} connection(s), ${duration} s each)\n`,
  )
  process.stdout.write(
    `${'query'.padEnd(22)}${'matches'.padStart(9)}${'req/s'.padStart(8)}${'ms/req'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'CPU µs/req'.padStart(12)}\n`,
  )
  for (const [row, r] of results) {
    process.stdout.write(
      `${row.padEnd(22)}${r.matches.toLocaleString('en').padStart(9)}${Math.round(r.requests.average).toString().padStart(8)}${perRequestMs(r).toFixed(2).padStart(8)}${String(r.latency.p50).padStart(8)}${String(r.latency.p99).padStart(8)}${(r.cpuUs === undefined ? '-' : Math.round(r.cpuUs).toString()).padStart(12)}\n`,
    )
  }
  const worst = Math.max(...[...results.values()].map((r) => r.latency.p50))
  const met = worst <= TARGET_P50_MS
  process.stdout.write(
    `Slowest p50 ${worst} ms (target ≤ ${TARGET_P50_MS} ms on every row: ${met ? 'met' : 'MISSED'})\n\n`,
  )
}

runBench('bench:search', main, work)
