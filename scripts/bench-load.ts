/**
 * `npm run bench:load`: the site under a mixed load, as many visitors make it: 64 connections
 * for 20 s, nine reads to one write (the first page, a second page, posts by id; a new post),
 * against the real server in its own process, its write limit on (counting every write in the
 * database, with a budget the run cannot exhaust). SQLite always; PostgreSQL too when
 * BENCH_POSTGRES_URL or TEST_POSTGRES_URL names a database (a throwaway schema is made in it
 * and dropped after). It prints req/s, p50, p99 and errors; the target on SQLite is p99 < 50 ms
 * with 0 errors. A missed target never fails the run.
 * Options: --duration S (default 20), --connections N (default 64), --posts N (default 1000).
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
}

async function run(engine: string, databaseUrl: string): Promise<Measured> {
  // The write limit counts every write in the database, as `npm start` does, with a budget
  // far above what the run can use, so that counting costs what it costs and nothing is refused.
  const server = await startBenchServer({
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    WRITE_RATE_LIMIT: String(WRITE_BUDGET),
    CREATE_RATE_LIMIT: '0',
  })
  try {
    const first = (await (await fetch(`${server.base}/api/news?limit=24`)).json()) as {
      _id: string
    }[]
    const link = (await fetch(`${server.base}/api/news?limit=24`)).headers.get('link') ?? ''
    const cursor = /cursor=([^&>]+)/.exec(link)?.[1]
    const newestId = first[0]?._id
    if (newestId === undefined || cursor === undefined) throw new Error(`${engine}: no posts`)
    const requests = mix({ newestId, secondPageCursor: decodeURIComponent(cursor) })
    process.stdout.write(`${engine}: ${connections} connections for ${duration} s …\n`)
    const cpuBefore = server.cpuMs()
    const result = await autocannon({ url: server.base, connections, duration, requests })
    return { result, cpuUsPerRequest: cpuPerRequest(cpuBefore, server.cpuMs(), result) }
  } finally {
    await server.stop()
  }
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
    },
  }
}

async function main(): Promise<void> {
  const rows: ({ engine: string } & Measured)[] = []
  const sqlitePath = join(work, 'load.db')
  await seedSqlite(sqlitePath, posts)
  rows.push({ engine: 'SQLite', ...(await run('SQLite', `sqlite:${sqlitePath}`)) })
  if (postgresUrl) {
    const schema = await postgresSchema(postgresUrl)
    try {
      await schema.seed()
      rows.push({ engine: 'PostgreSQL', ...(await run('PostgreSQL', schema.url)) })
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
  const sqlite = rows[0]?.result
  if (sqlite !== undefined) {
    const errors = sqlite.errors + sqlite.timeouts + sqlite.non2xx
    const met = sqlite.latency.p99 < 50 && errors === 0
    process.stdout.write(`target on SQLite, p99 < 50 ms with 0 errors: ${met ? 'met' : 'MISSED'}\n`)
  }
}

runBench('bench:load', main, work)
