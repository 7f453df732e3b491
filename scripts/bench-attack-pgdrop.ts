/**
 * `npm run bench:attack-pgdrop`: does the server outlive a PostgreSQL that drops its
 * connections? Against the real server in its own process, under autocannon load (--connections,
 * default 32: reads of the first page and of a post, and new posts, each counted against a write
 * budget the run cannot exhaust), it terminates the server's backends --drops times (default 5,
 * --gap ms apart, default 500) with pg_terminate_backend, as an operator or a failover does, and
 * with --restarts N also restarts the database N times (pg_ctl restart -m fast).
 * The database: a throwaway schema in BENCH_POSTGRES_URL or TEST_POSTGRES_URL, where only this
 * server's backends are terminated (found by their application_name); or, when neither is set
 * or --restarts is given, a throwaway cluster of its own (scripts/ci-postgres.sh) if PostgreSQL
 * is installed. With neither, it says it skipped.
 * It prints whether the server survived, how many answers were 503 (the Unavailable problem),
 * how many were other errors (another status, a 503 with another body, a socket error, a
 * timeout), and the time from the last drop until a read succeeds again. The target: it survives,
 * with 0 other errors. A missed target never fails the run.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { autocannon, type AutocannonRequest } from './bench/autocannon'
import { startBenchServer, type BenchServer } from './bench/bench-server'
import { benchOptions } from './bench/options'
import { runBench } from './bench/run-bench'
import {
  postgresInstalled,
  startThrowawayPostgres,
  terminateBackends,
  throwawaySchema,
  withApplicationName,
} from './bench/throwaway-postgres'
import { DETAILS, problem } from '@/server/services/problem'

const {
  drops,
  restarts,
  gap: gapMs,
  connections,
} = benchOptions({
  drops: [5, 0, 50],
  restarts: [0, 0, 10],
  gap: [500, 50, 10_000],
  connections: [32, 1, 256],
})
const sharedUrl = (process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL)?.trim()

/** Writes allowed per client per minute: the most config.ts accepts. */
const WRITE_BUDGET = 1_000_000
/** The connections' name, by which only this server's backends are found. */
const APPLICATION_NAME = `newswire_bench_pgdrop_${process.pid}`
/** How long reads may take to succeed again before the run says they never did. */
const HEAL_LIMIT_MS = 15_000
const UNAVAILABLE = JSON.stringify(problem(503, DETAILS.unavailable))

const work = mkdtempSync(join(tmpdir(), 'newswire-pgdrop-'))

/** The database to attack: its URL, how to drop its connections, and how to throw it away. */
interface Target {
  readonly label: string
  readonly url: string
  drop(): Promise<number>
  restart?(): Promise<void>
  dispose(): Promise<void>
}

async function target(): Promise<Target> {
  if (sharedUrl && restarts === 0) {
    const schema = await throwawaySchema(sharedUrl, 'newswire_bench_pgdrop')
    return {
      label: 'a schema in the shared database',
      url: withApplicationName(schema.url, APPLICATION_NAME),
      drop: () => terminateBackends(sharedUrl, APPLICATION_NAME),
      dispose: () => schema.drop(),
    }
  }
  const cluster = await startThrowawayPostgres()
  return {
    label: 'a throwaway cluster',
    url: withApplicationName(cluster.url, APPLICATION_NAME),
    drop: () => terminateBackends(cluster.url, APPLICATION_NAME),
    restart: () => cluster.restart(),
    dispose: () => cluster.stop(),
  }
}

/** What the answers were, counted as autocannon sees them. */
interface Tally {
  unavailable: number
  /** 503s whose body is not the Unavailable problem: they could say something internal. */
  leaky: number
}

function requests(postId: string, tally: Tally): AutocannonRequest[] {
  const onResponse = (status: number, body: string) => {
    if (status !== 503) return
    if (body === UNAVAILABLE) tally.unavailable += 1
    else tally.leaky += 1
  }
  return [
    { method: 'GET', path: '/api/news', onResponse },
    {
      method: 'POST',
      path: '/api/news',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Under attack', body: 'Kept.', author: 'Ada' }),
      onResponse,
    },
    { method: 'GET', path: `/api/news/${postId}`, onResponse },
  ]
}

/** Ms from `since` until GET /api/news answers 200; undefined if not within HEAL_LIMIT_MS. */
async function readsAgainAfter(server: BenchServer, since: number): Promise<number | undefined> {
  while (Date.now() - since < HEAL_LIMIT_MS && server.running()) {
    const status = await fetch(`${server.base}/api/news`)
      .then((response) => response.status)
      .catch(() => 0)
    if (status === 200) return Date.now() - since
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return undefined
}

async function main(): Promise<void> {
  if (!(sharedUrl && restarts === 0) && !postgresInstalled()) {
    process.stdout.write(
      'Dropped PostgreSQL connections: skipped (set BENCH_POSTGRES_URL or TEST_POSTGRES_URL, or install PostgreSQL)\n',
    )
    return
  }
  const database = await target()
  try {
    const server = await startBenchServer({
      DATABASE_URL: database.url,
      HOST: '127.0.0.1',
      WRITE_RATE_LIMIT: String(WRITE_BUDGET),
      CREATE_RATE_LIMIT: '0',
    })
    try {
      await attack(server, database)
    } finally {
      await server.stop()
    }
  } finally {
    await database.dispose()
  }
}

async function attack(server: BenchServer, database: Target): Promise<void> {
  const created = await fetch(`${server.base}/api/news`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Read under attack', body: 'Kept.', author: 'Ada' }),
  })
  const { _id: postId } = (await created.json()) as { _id: string }
  const tally: Tally = { unavailable: 0, leaky: 0 }
  const attacks = drops + restarts
  const duration = Math.ceil(((attacks + 1) * gapMs) / 1000) + 2
  const load = autocannon({
    url: server.base,
    connections,
    duration,
    requests: requests(postId, tally),
  })

  let terminated = 0
  let lastAttack = Date.now()
  for (let n = 0; n < attacks; n += 1) {
    await new Promise((resolve) => setTimeout(resolve, gapMs))
    lastAttack = Date.now()
    if (n >= drops && database.restart !== undefined) await database.restart()
    else terminated += await database.drop().catch(() => 0)
  }
  const healMs = await readsAgainAfter(server, lastAttack)
  const result = await load
  const survived = server.running()

  const answers = Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + count, 0)
  const otherStatuses = result.non2xx - tally.unavailable - tally.leaky
  const otherErrors = otherStatuses + tally.leaky + result.errors
  const lines = [
    '',
    `Dropped PostgreSQL connections under load (${database.label}, ${connections} connections, ${duration} s)`,
    `drops:              ${drops} terminations (${terminated} backends)${restarts > 0 ? `, ${restarts} restarts` : ''}, ${gapMs} ms apart`,
    `survived:           ${survived ? 'yes' : 'NO'}`,
    `answers:            ${answers} (${answers - result.non2xx} 2xx)`,
    `latency:            p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
    `503 Unavailable:    ${tally.unavailable}`,
    `other errors:       ${otherErrors} (other statuses ${otherStatuses}, 503 with another body ${tally.leaky}, socket errors and timeouts ${result.errors})`,
    `reads again after:  ${healed(healMs, survived)} (from the last drop to a GET /api/news that answers 200)`,
    `target: survives with 0 other errors: ${survived && otherErrors === 0 ? 'met' : 'MISSED'}`,
    '',
  ]
  process.stdout.write(lines.join('\n'))
}

function healed(ms: number | undefined, survived: boolean): string {
  if (ms !== undefined) return `${ms} ms`
  return survived ? `not within ${HEAL_LIMIT_MS / 1000} s` : 'never: the server is gone'
}

runBench('bench:attack-pgdrop', main, work)
