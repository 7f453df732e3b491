/**
 * `npm run bench:load`: the site under a mixed load, as many visitors make it: 64 connections
 * for 20 s, nine reads to one write (the first page, a second page, posts by id; a new post),
 * against the real server in its own process, its write limit on (counting every write in the
 * database, with a budget the run cannot exhaust). SQLite always; PostgreSQL too when
 * BENCH_POSTGRES_URL or TEST_POSTGRES_URL names a database (a throwaway schema is made in it
 * and dropped after). It prints req/s, p50, p99 and errors, and from the server's own metrics the
 * share of each kind of request it answered after more than 25 and 50 ms; the target is p99 <
 * 50 ms with 0 errors. A missed target never fails the run.
 * Options: --duration S (default 20), --connections N (default 64), --posts N (default 1000),
 * --only sqlite|postgres (one engine), --statements (before the load, count the database
 * statements each kind of request runs, from the server's metrics, on a server of its own).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { cpuPerRequest, startBenchServer } from './bench/bench-server'
import { throwawaySchema } from './bench/postgres-schema'
import { runBench } from './bench/run-bench'
import { seedSqlite } from './bench/seed-posts'
import { autocannon, type AutocannonRequest, type AutocannonResult } from './bench/autocannon'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '64' },
    posts: { type: 'string', default: '1000' },
    only: { type: 'string' },
    statements: { type: 'boolean', default: false },
  },
})
const duration = Math.min(Math.max(Number(values.duration) || 20, 1), 120)
const connections = Math.min(Math.max(Number(values.connections) || 64, 1), 512)
const posts = Math.min(Math.max(Number(values.posts) || 1000, 30), 1_000_000)
const postgresUrl = (process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL)?.trim()

/** Writes allowed per client per minute: the most config.ts accepts. */
const WRITE_BUDGET = 1_000_000

const work = mkdtempSync(join(tmpdir(), 'newswire-load-'))

/** Nine reads to one write, in the order each connection repeats them. */
function mix(seeded: { newestId: string; secondPageCursor: string }): AutocannonRequest[] {
  const firstPage = { method: 'GET', path: '/api/news' } as const
  const byId = { method: 'GET', path: `/api/news/${seeded.newestId}` } as const
  const secondPage = {
    method: 'GET',
    path: `/api/news?cursor=${encodeURIComponent(seeded.secondPageCursor)}`,
  } as const
  const write = {
    method: 'POST',
    path: '/api/news',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Load test post',
      author: 'Bench',
      body: 'Written by npm run bench:load.',
    }),
  } as const
  return [
    firstPage,
    byId,
    firstPage,
    secondPage,
    firstPage,
    write,
    firstPage,
    byId,
    firstPage,
    firstPage,
  ]
}

interface Measured {
  readonly result: AutocannonResult
  /** The server's CPU time per answered request, in µs, where the platform tells it. */
  readonly cpuUsPerRequest: number | undefined
  /** By kind of request, the share the server took longer than 25 and 50 ms to answer. */
  readonly slow: readonly SlowShare[]
}

interface SlowShare {
  readonly kind: string
  readonly answered: number
  readonly over25: number
  readonly over50: number
}

/** The routes of the mix, as the server's request histogram labels them. */
const ROUTES = [
  { kind: 'pages (first, second)', method: 'GET', route: '/api/news' },
  { kind: 'post by id', method: 'GET', route: '/api/news/:id' },
  { kind: 'new post', method: 'POST', route: '/api/news' },
] as const

/**
 * From the server's own request histogram (its metrics), the share of each kind of request it
 * took longer than 25 and 50 ms to answer: where the run's p99 comes from. The time inside the
 * server, from the request's arrival to its answer; the load generator adds its own waits.
 */
function slowShares(metrics: string): SlowShare[] {
  return ROUTES.map(({ kind, method, route }) => {
    const bucket = (le: string): number => {
      const line = metrics
        .split('\n')
        .find((text) =>
          text.startsWith(
            `newswire_http_request_duration_seconds_bucket{le="${le}",method="${method}",route="${route}",status="20`,
          ),
        )
      return Number(line?.split(' ')[1] ?? 0)
    }
    const answered = bucket('+Inf')
    const share = (le: string) => (answered === 0 ? 0 : 1 - bucket(le) / answered)
    return { kind, answered, over25: share('0.025'), over50: share('0.05') }
  })
}

/**
 * The server under test. The write limit counts every write in the database, as `npm start`
 * does, with a budget far above what the run can use, so that counting costs what it costs and
 * nothing is refused.
 */
function loadServer(databaseUrl: string, env: Record<string, string> = {}) {
  return startBenchServer({
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    WRITE_RATE_LIMIT: String(WRITE_BUDGET),
    CREATE_RATE_LIMIT: '0',
    ...env,
  })
}

async function run(engine: string, databaseUrl: string): Promise<Measured> {
  const server = await loadServer(databaseUrl, { METRICS_TOKEN })
  try {
    const requests = mix(await seededOf(server.base, engine))
    process.stdout.write(`${engine}: ${connections} connections for ${duration} s …\n`)
    const cpuBefore = server.cpuMs()
    const result = await autocannon({ url: server.base, connections, duration, requests })
    const slow = slowShares(await metricsText(server.base))
    return { result, cpuUsPerRequest: cpuPerRequest(cpuBefore, server.cpuMs(), result), slow }
  } finally {
    await server.stop()
  }
}

/** The metrics' bearer token of the servers under test (never a production one). */
const METRICS_TOKEN = 'bench-load-metrics'

/** Sequential sendings of each kind of request that the statement count averages over. */
const COUNTED = 40

/** What each kind of request is called in the count's table, by its place in the mix. */
const KINDS = ['first page', 'post by id', 'second page', 'new post'] as const

/**
 * The database statements (by kind: select, insert, update, transaction...) that each kind of
 * request runs, one at a time on an idle server: the server's own count (its metrics, which
 * Kysely tells of every statement), read before and after COUNTED sendings, less what the
 * server ran meanwhile by itself (measured idle for as long). Steady state: the first page is
 * then answered from its cache, which asks the database only for the site's version.
 */
async function countStatements(engine: string, databaseUrl: string): Promise<void> {
  const server = await loadServer(databaseUrl, { METRICS_TOKEN })
  try {
    const requests = mix(await seededOf(server.base, engine))
    const kinds = [requests[0], requests[1], requests[3], requests[5]]
    const send = async (request: AutocannonRequest | undefined): Promise<void> => {
      if (request === undefined) return
      const answer = await fetch(`${server.base}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      })
      await answer.arrayBuffer()
      if (!answer.ok)
        throw new Error(`${engine}: ${request.method} ${request.path}: ${answer.status}`)
    }
    const counts = () => statementCounts(server.base)
    const idleStart = await counts()
    const idleFrom = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const idlePerMs = total(difference(await counts(), idleStart)) / (performance.now() - idleFrom)
    process.stdout.write(
      `\n${engine}: database statements per request (${COUNTED} of each, one at a time)\n`,
    )
    for (const [index, request] of kinds.entries()) {
      for (let warm = 0; warm < 3; warm += 1) await send(request)
      const before = await counts()
      const started = performance.now()
      for (let sent = 0; sent < COUNTED; sent += 1) await send(request)
      const ran = difference(await counts(), before)
      const idle = idlePerMs * (performance.now() - started)
      const byKind = [...ran.entries()]
        .filter(([, count]) => count > 0)
        .map(([kind, count]) => `${kind} ${round(count / COUNTED)}`)
        .join(', ')
      process.stdout.write(
        `  ${(KINDS[index] ?? '').padEnd(12)}${round((total(ran) - idle) / COUNTED).padStart(6)}  (${byKind})\n`,
      )
    }
    const before = await counts()
    for (let round = 0; round < COUNTED / 10; round += 1) {
      for (const request of requests) await send(request)
    }
    const ran = total(difference(await counts(), before))
    process.stdout.write(
      `  ${'the mix'.padEnd(12)}${round(ran / (COUNTED / 10) / requests.length).padStart(6)}  (per request, one at a time)\n`,
    )
  } finally {
    await server.stop()
  }
}

/** The server's metrics, as Prometheus would scrape them. */
async function metricsText(base: string): Promise<string> {
  const answer = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  })
  return answer.text()
}

/** The statements the server has run so far, by kind, from its metrics. */
async function statementCounts(base: string): Promise<Map<string, number>> {
  const text = await metricsText(base)
  const counts = new Map<string, number>()
  for (const match of text.matchAll(
    /^newswire_db_statement_duration_seconds_count\{kind="([a-z]+)",outcome="[a-z]+"\} (\d+)$/gm,
  )) {
    const [, kind = '', count = '0'] = match
    counts.set(kind, (counts.get(kind) ?? 0) + Number(count))
  }
  return counts
}

function difference(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([kind, count]) => [kind, count - (before.get(kind) ?? 0)]))
}

function total(counts: Map<string, number>): number {
  return [...counts.values()].reduce((sum, count) => sum + count, 0)
}

function round(value: number): string {
  return (Math.round(value * 10) / 10).toString()
}

/** The newest post's id and the second page's cursor, which the mix reads. */
async function seededOf(
  base: string,
  engine: string,
): Promise<{ newestId: string; secondPageCursor: string }> {
  const answer = await fetch(`${base}/api/news?limit=24`)
  const first = (await answer.json()) as { _id: string }[]
  const cursor = /cursor=([^&>]+)/.exec(answer.headers.get('link') ?? '')?.[1]
  const newestId = first[0]?._id
  if (newestId === undefined || cursor === undefined) throw new Error(`${engine}: no posts`)
  return { newestId, secondPageCursor: decodeURIComponent(cursor) }
}

/** A fresh schema in the PostgreSQL database, seeded with `posts` posts; dropped by `drop`. */
async function postgresSchema(url: string) {
  const { schema, admin, url: scoped, drop } = await throwawaySchema(url, 'newswire_bench')
  return {
    url: scoped,
    drop,
    async seed(): Promise<void> {
      const server = await startBenchServer({ DATABASE_URL: scoped, HOST: '127.0.0.1' })
      await server.stop()
      const at = (index: number) => new Date(Date.UTC(2020, 0, 1) + index * 1000).toISOString()
      await admin.query(
        `insert into ${schema}.news (id, title, body, author, created_at, updated_at, revision, deleted_at)
         select 'bench-' || i, 'Post ' || i, repeat('news ', 40), 'Author ' || (i % 97),
                $1::timestamptz + i * interval '1 second', $1::timestamptz + i * interval '1 second', 1, null
         from generate_series(0, $2 - 1) as i`,
        [at(0), posts],
      )
      await admin.query(
        `insert into ${schema}.news_revision (news_id, revision, title, body, author, action, at, restored_from)
         select id, 1, title, body, author, 'create', created_at, null from ${schema}.news`,
      )
      // As after any bulk load (the site's import does the same): without statistics the
      // planner takes the list's partial index to hold a few rows, and sorts them all.
      await admin.query(`analyze ${schema}.news`)
      await admin.query(`analyze ${schema}.news_revision`)
    },
  }
}

async function main(): Promise<void> {
  const rows: ({ engine: string } & Measured)[] = []
  const measure = async (engine: string, databaseUrl: string): Promise<void> => {
    if (values.statements) await countStatements(engine, databaseUrl)
    rows.push({ engine, ...(await run(engine, databaseUrl)) })
  }
  if (values.only !== 'postgres') {
    const sqlitePath = join(work, 'load.db')
    await seedSqlite(sqlitePath, posts)
    await measure('SQLite', `sqlite:${sqlitePath}`)
  }
  if (values.only === 'sqlite') {
    // SQLite alone, as asked.
  } else if (postgresUrl) {
    const schema = await postgresSchema(postgresUrl)
    try {
      await schema.seed()
      await measure('PostgreSQL', schema.url)
    } finally {
      await schema.drop()
    }
  } else {
    process.stdout.write('PostgreSQL: skipped (set BENCH_POSTGRES_URL or TEST_POSTGRES_URL)\n')
  }
  process.stdout.write(
    `\nMixed load: ${connections} connections, ${duration} s, 90% reads / 10% writes, ${posts} posts\n`,
  )
  process.stdout.write(
    `${'engine'.padEnd(12)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'errors'.padStart(8)}${'server CPU µs/req'.padStart(19)}\n`,
  )
  for (const { engine, result, cpuUsPerRequest } of rows) {
    const errors = result.errors + result.timeouts + result.non2xx
    const cpu = cpuUsPerRequest === undefined ? '-' : Math.round(cpuUsPerRequest).toString()
    process.stdout.write(
      `${engine.padEnd(12)}${Math.round(result.requests.average).toString().padStart(8)}${String(result.latency.p50).padStart(8)}${String(result.latency.p99).padStart(8)}${String(errors).padStart(8)}${cpu.padStart(19)}\n`,
    )
  }
  process.stdout.write(
    '\nanswered in the server after more than 25 ms / 50 ms, by kind of request\n',
  )
  for (const { engine, slow } of rows) {
    const cells = slow.map(
      ({ kind, over25, over50 }) =>
        `${kind} ${(over25 * 100).toFixed(1)}% / ${(over50 * 100).toFixed(2)}%`,
    )
    process.stdout.write(`${engine.padEnd(12)}${cells.join(';  ')}\n`)
  }
  for (const { engine, result } of rows) {
    const errors = result.errors + result.timeouts + result.non2xx
    const met = result.latency.p99 < 50 && errors === 0
    process.stdout.write(
      `target on ${engine}, p99 < 50 ms with 0 errors: ${met ? 'met' : 'MISSED'}\n`,
    )
  }
}

runBench('bench:load', main, work)
