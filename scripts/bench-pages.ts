/**
 * `npm run bench:pages`: how fast the pages visitors arrive on answer, beside the API's first
 * page in the same run. It stores 300 searchable posts in a temporary SQLite database and starts
 * the production server twice, as `npm start` does: once as configured by default (the page
 * cache on) and once with PAGE_CACHE_MB=0, whose renders it times. For each path it prints:
 *   - req/s and p99 over loopback (autocannon, 10 connections, `Accept-Encoding: br` as a
 *     browser sends it), the median of the rounds, and the ratio to the API's first page;
 *   - the server's CPU per uncached render, from 50 requests one after another.
 * A search is measured twice: one query asked again and again (kept by the page cache until a
 * write, as the list is), and a stream of distinct queries (two common words, a new pair for
 * each request of the run), each rendered as it comes, which is what a search costs
 * when no one asked it before; the API is asked the same stream of queries, for comparison.
 * Targets (issue: the front door at API speed): `/`, an article and the feed at ≥ 0.5× the API
 * in req/s, a search page at ≥ 0.1×, 0 errors, and p99 within 2× the API's. A missed target
 * never fails the run. Options: --duration S (default 5), --rounds N (default 3).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { autocannon, type AutocannonRequest, type AutocannonResult } from './bench/autocannon'
import { startProductionServer, type ProductionServer } from './bench/production-server'
import { runBench } from './bench/run-bench'
import { wordOfRank } from './bench/news-text'
import { seedSqlite } from './bench/seed-posts'

const POSTS = 300
const CONNECTIONS = 10
const RENDERS = 50
const BROWSER = { 'accept-encoding': 'br' }

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
  },
})
const duration = Math.min(60, Math.max(1, Number(values.duration) || 5))
const rounds = Math.min(9, Math.max(1, Number(values.rounds) || 3))
const work = mkdtempSync(join(tmpdir(), 'newswire-bench-pages-'))
/** The distinct searches asked so far, over every round: of the page, and of the API. */
let searched = 0
let apiSearched = 0

interface Path {
  readonly name: string
  readonly path: string
  /** The least share of the API's req/s it should reach. */
  readonly target: number | undefined
  /** Asks for another path at each request (distinct searches) instead of `path` again. */
  readonly walk?: () => string
}

/**
 * Common words of the benchmark's posts, two of which a distinct search asks for: past the ten
 * commonest ('the', 'of', …), which nearly every post holds, so that queries find some posts.
 */
const SEARCH_WORDS = Array.from({ length: 100 }, (_, rank) => wordOfRank(10 + rank))

/** A search no request of the run asked before: the n-th pair of two of the commonest words. */
function distinctSearch(n: number, at = '/search'): string {
  const size = SEARCH_WORDS.length
  const first = SEARCH_WORDS[n % size] ?? 'the'
  const second = SEARCH_WORDS[(n + 1 + Math.floor(n / size)) % size] ?? 'city'
  return `${at}?q=${encodeURIComponent(first)}+${encodeURIComponent(second)}`
}

async function main(): Promise<void> {
  const database = join(work, 'pages.db')
  process.stdout.write(`Storing ${POSTS} posts in ${database} …\n`)
  const seeded = await seedSqlite(database, POSTS, { searchable: true })
  const env = {
    DATABASE_URL: `sqlite:${database}`,
    DEMO_POSTS: '0',
    SEARCH_RATE_LIMIT: '0',
    PUBLIC_URL: 'https://news.example.com',
  }
  const paths: readonly Path[] = [
    { name: 'GET /api/news (first page)', path: '/api/news', target: undefined },
    { name: '/', path: '/', target: 0.5 },
    { name: 'an article', path: `/news/${seeded.newestId}`, target: 0.5 },
    { name: '/feed.xml', path: '/feed.xml', target: 0.5 },
    { name: '/search?q=harbour', path: '/search?q=harbour', target: 0.1 },
    {
      name: 'distinct searches',
      path: distinctSearch(0),
      target: undefined,
      walk: () => distinctSearch((searched += 1)),
    },
    {
      name: 'distinct API searches',
      path: distinctSearch(0, '/api/news'),
      target: undefined,
      walk: () => distinctSearch((apiSearched += 1), '/api/news'),
    },
  ]
  const cached = await startProductionServer(env)
  const uncached = await startProductionServer({ ...env, PAGE_CACHE_MB: '0' })
  try {
    const results = new Map<string, AutocannonResult[]>()
    for (let round = 0; round < rounds; round += 1) {
      for (const { name, path, walk } of paths) {
        const result = await autocannon({
          url: `${cached.base}${path}`,
          connections: CONNECTIONS,
          duration,
          headers: BROWSER,
          ...(walk === undefined ? {} : { requests: walking(walk) }),
        })
        results.set(name, [...(results.get(name) ?? []), result])
      }
    }
    const cpu = new Map<string, number | undefined>()
    for (const { name, path, walk } of paths) {
      cpu.set(name, walk === undefined ? await cpuPerRequest(uncached, path) : undefined)
    }
    report(paths, results, cpu)
  } finally {
    await cached.stop()
    await uncached.stop()
  }
}

/** The server's CPU per request of `path`, in ms, over RENDERS requests one after another. */
async function cpuPerRequest(server: ProductionServer, path: string): Promise<number | undefined> {
  await fetch(`${server.base}${path}`, { headers: BROWSER }).then((answer) => answer.arrayBuffer())
  const before = server.cpuMs()
  for (let n = 0; n < RENDERS; n += 1) {
    const answer = await fetch(`${server.base}${path}`, { headers: BROWSER })
    await answer.arrayBuffer()
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`)
  }
  const after = server.cpuMs()
  return before === undefined || after === undefined ? undefined : (after - before) / RENDERS
}

/** One request that asks for `next()` at each sending. */
function walking(next: () => string): AutocannonRequest[] {
  return [
    { method: 'GET', path: next(), setupRequest: (request) => ({ ...request, path: next() }) },
  ]
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

function report(
  paths: readonly Path[],
  results: ReadonlyMap<string, readonly AutocannonResult[]>,
  cpu: ReadonlyMap<string, number | undefined>,
): void {
  const of = (name: string) => results.get(name) ?? []
  const rate = (name: string) => median(of(name).map((result) => result.requests.average))
  const p99 = (name: string) => median(of(name).map((result) => result.latency.p99))
  const errors = (name: string) =>
    of(name).reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0)
  const api = paths[0]?.name ?? ''
  const out = process.stdout
  out.write(
    `\nPages over loopback, ${CONNECTIONS} connections, ${duration} s, median of ${rounds} rounds\n`,
  )
  out.write(
    `${'path'.padEnd(28)}${'req/s'.padStart(9)}${'× API'.padStart(8)}${'p99 ms'.padStart(8)}${'errors'.padStart(8)}${'render CPU ms'.padStart(15)}  target\n`,
  )
  for (const { name, target } of paths) {
    const ratio = rate(name) / Math.max(1, rate(api))
    const cpuMs = cpu.get(name)
    const met =
      target === undefined
        ? ''
        : ratio >= target && errors(name) === 0 && p99(name) <= 2 * Math.max(1, p99(api))
          ? `≥ ${target}×, p99 ≤ 2× API: met`
          : `≥ ${target}×, p99 ≤ 2× API: MISSED`
    out.write(
      `${name.padEnd(28)}${rate(name).toFixed(0).padStart(9)}${ratio.toFixed(2).padStart(8)}${String(p99(name)).padStart(8)}${String(errors(name)).padStart(8)}${(cpuMs === undefined ? 'n/a' : cpuMs.toFixed(2)).padStart(15)}  ${met}\n`,
    )
  }
  out.write(
    '\nrender CPU: the server process’s CPU per request with PAGE_CACHE_MB=0 (the API: its own cache).\n' +
      `distinct searches: ${searched} queries none asked before (two of ${SEARCH_WORDS.length} common words), each rendered;\n` +
      `  the same queries of the API (GET /api/news?q=), ${apiSearched} of them: the page at ${(rate('distinct searches') / Math.max(1, rate('distinct API searches'))).toFixed(2)}× the API's req/s.\n`,
  )
}

runBench('bench:pages', main, work)
