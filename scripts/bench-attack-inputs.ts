/**
 * `npm run bench:attack-inputs`: what long inputs and costly searches cost the server, and
 * whether visitors still read quickly while other clients flood it with searches. Against the
 * real server as `npm start` runs it (built app, production settings, logs on), in its own
 * process, over loopback, on posts seeded with varied text (scripts/bench/news-text.ts), 100,000
 * by default, like `npm run bench:search`. Each client sends from an address of its own
 * (X-Forwarded-For, with TRUST_PROXY naming loopback), as clients on the internet would.
 *
 *   1. Long inputs, one at a time: a 15,000-character search on the /search page and on
 *      GET /api/news?q=, a 16 KiB post refused for its length, and a 16 KiB contact message
 *      refused by the outbox. It prints each one's median and slowest time to answer and the
 *      server's CPU per request, and checks the answer (status and the domain's message).
 *      Target: under 30 ms each.
 *   2. A visitor reading GET /api/news (one connection), alone and then while two clients flood
 *      the server with searches: 15,000-character queries and the costliest queries the rules
 *      accept (as many of the commonest words as a query may hold, which rarely meet in one
 *      post, so that every ranking tier reads through the index), on the page and the API.
 *      It prints the visitor's p50 and p99 and what the flooders got. Target: p50 under 50 ms.
 *
 * SQLite always; PostgreSQL too when TEST_POSTGRES_URL or BENCH_POSTGRES_URL names a database
 * (a throwaway schema is made in it and dropped after); --postgres insists on it. A missed target
 * never fails the run. Options: --posts N (default 100000), --duration S (flood, default 10),
 * --flood-connections N (per flooding client, default 4), --postgres.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { SEARCH_LIMITS } from '@/domain/rules/search-query.rules'
import { OUTBOX_IDS } from '@/server/services/server-config'
import { autocannon, walking, type AutocannonResult } from './bench/autocannon'
import { wordOfRank } from './bench/news-text'
import { startProductionServer, type ProductionServer } from './bench/production-server'
import { benchOptions } from './bench/options'
import { runBench } from './bench/run-bench'
import { seedPostgres } from './bench/seed-postgres'
import { seedSqlite } from './bench/seed-posts'

const values = benchOptions(
  { posts: [100_000, 1000, 1_000_000], duration: [10, 2, 60], 'flood-connections': [4, 1, 50] },
  { flags: ['postgres'] },
)
const { posts, duration, 'flood-connections': floodConnections } = values
const postgresUrl = (process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL)?.trim()
if (values.postgres && !postgresUrl) {
  throw new Error('--postgres needs TEST_POSTGRES_URL or BENCH_POSTGRES_URL')
}

const LONG_INPUT_TARGET_MS = 30
const VISITOR_P50_TARGET_MS = 50
/** Requests per long input, after two that warm the server up. */
const SAMPLES = 15

const PROSE = 'The harbour council met at dawn and the market stayed open late into the night. '
const longText = (units: number) => PROSE.repeat(Math.ceil(units / PROSE.length)).slice(0, units)
// Spaces as '+', as a form sends them: 15,000 characters fit Node's 16 KiB of request headers.
const LONG_QUERY_PARAM = longText(15_000).replaceAll(' ', '+')

/** Each client's own address, as a proxy would forward it. */
const ADDRESSES = {
  visitor: '192.0.2.10',
  floodA: '198.51.100.1',
  floodB: '198.51.100.2',
  searchPage: '203.0.113.1',
  emptySearchPage: '203.0.113.5',
  searchApi: '203.0.113.2',
  write: '203.0.113.3',
  outbox: '203.0.113.4',
} as const

/**
 * The costliest queries the rules accept: runs of the commonest words, as many as a query may
 * hold. Common words have the longest lists in the index, and a run of many seldom meets in one
 * post, so a search reads each list through, for every ranking tier.
 */
const WORST_QUERIES = Array.from({ length: 20 }, (_, start) =>
  Array.from({ length: SEARCH_LIMITS.terms }, (_, offset) => wordOfRank(start + offset)).join(' '),
)

interface Probe {
  readonly name: string
  /** A short input's row, printed for scale and left out of the target. */
  readonly reference?: boolean
  readonly address: string
  readonly send: (base: string, address: string) => Promise<Response>
  /** What a right answer holds: its status and the domain's message in its body. */
  readonly status: number
  readonly message: string
}

const TOO_LONG_QUERY = `Must be ${SEARCH_LIMITS.length} characters or less`

const PROBES: readonly Probe[] = [
  {
    name: '/search?q= (empty: for scale)',
    reference: true,
    address: ADDRESSES.emptySearchPage,
    send: (base, address) => fetch(`${base}/search?q=`, { headers: forwardedFor(address) }),
    status: 200,
    message: 'Type a word to search for',
  },
  {
    name: '/search?q= (15,000 characters)',
    address: ADDRESSES.searchPage,
    send: (base, address) =>
      fetch(`${base}/search?q=${LONG_QUERY_PARAM}`, { headers: forwardedFor(address) }),
    status: 200,
    message: TOO_LONG_QUERY,
  },
  {
    name: '/api/news?q= (15,000 characters)',
    address: ADDRESSES.searchApi,
    send: (base, address) =>
      fetch(`${base}/api/news?q=${LONG_QUERY_PARAM}`, { headers: forwardedFor(address) }),
    status: 400,
    message: TOO_LONG_QUERY,
  },
  {
    name: 'POST /api/news (16 KiB)',
    address: ADDRESSES.write,
    send: (base, address) =>
      fetch(`${base}/api/news`, {
        method: 'POST',
        headers: { ...forwardedFor(address), 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Long', author: 'Bench', body: longText(16_000) }),
      }),
    status: 422,
    message: 'Must be 500 characters or less',
  },
  {
    name: 'outbox message (16 KiB)',
    address: ADDRESSES.outbox,
    send: (base, address) => {
      const form = new FormData()
      const fields = {
        lib_version: '4.4.1',
        service_id: OUTBOX_IDS.serviceId,
        template_id: OUTBOX_IDS.templateId,
        user_id: OUTBOX_IDS.publicKey,
        name: 'Bench',
        email: 'bench@example.com',
        message: longText(16 * 1024),
      }
      for (const [name, value] of Object.entries(fields)) form.append(name, value)
      return fetch(`${base}/api/v1.0/email/send-form`, {
        method: 'POST',
        headers: { ...forwardedFor(address), origin: base },
        body: form,
      })
    },
    status: 400,
    message: 'Must be 500 characters or less',
  },
]

function forwardedFor(address: string): Record<string, string> {
  return { 'x-forwarded-for': address }
}

interface ProbeResult {
  readonly name: string
  readonly reference: boolean
  readonly medianMs: number
  readonly slowestMs: number
  readonly cpuMs: number | undefined
  readonly answered: string
  readonly right: boolean
}

async function probe(
  server: ProductionServer,
  { name, reference = false, address, send, ...expected }: Probe,
) {
  const times: number[] = []
  let answered = ''
  let right = true
  const once = async () => {
    const started = performance.now()
    const response = await send(server.base, address)
    const body = await response.text()
    const ms = performance.now() - started
    answered = String(response.status)
    right &&= response.status === expected.status && body.includes(expected.message)
    return ms
  }
  await once()
  await once()
  const cpuBefore = server.cpuMs()
  for (let sample = 0; sample < SAMPLES; sample += 1) times.push(await once())
  const cpuAfter = server.cpuMs()
  times.sort((a, b) => a - b)
  return {
    name,
    reference,
    medianMs: times[Math.floor(times.length / 2)] ?? 0,
    slowestMs: times.at(-1) ?? 0,
    cpuMs:
      cpuBefore === undefined || cpuAfter === undefined
        ? undefined
        : (cpuAfter - cpuBefore) / SAMPLES,
    answered,
    right,
  } satisfies ProbeResult
}

/** The flooders' URLs: the costliest accepted queries and over-long ones, on the page and the API. */
function floodPaths(): string[] {
  return WORST_QUERIES.flatMap((q) => {
    const param = encodeURIComponent(q)
    return [`/api/news?q=${param}`, `/search?q=${param}`, `/api/news?q=${LONG_QUERY_PARAM}`]
  }).concat([`/search?q=${LONG_QUERY_PARAM}`])
}

interface FloodResult {
  readonly alone: AutocannonResult
  readonly flooded: AutocannonResult
  readonly flooders: readonly AutocannonResult[]
  readonly worstQueryMs: number
}

async function flood(server: ProductionServer): Promise<FloodResult> {
  const visitor = {
    url: server.base,
    connections: 1,
    headers: forwardedFor(ADDRESSES.visitor),
    requests: [{ method: 'GET', path: '/api/news' }] as const,
  }
  const alone = await autocannon({ ...visitor, duration: Math.max(2, duration / 2) })
  const flooder = (address: string) =>
    autocannon({
      url: server.base,
      connections: floodConnections,
      duration,
      headers: forwardedFor(address),
      requests: walking(floodPaths()),
    })
  const [flooded, ...flooders] = await Promise.all([
    autocannon({ ...visitor, duration }),
    flooder(ADDRESSES.floodA),
    flooder(ADDRESSES.floodB),
  ])
  // The worst searches alone, once the flood's last requests are answered, for scale.
  await new Promise((resolve) => setTimeout(resolve, 3000))
  const times: number[] = []
  for (const [index, q] of WORST_QUERIES.slice(0, 5).entries()) {
    const started = performance.now()
    const response = await fetch(`${server.base}/api/news?q=${encodeURIComponent(q)}`, {
      headers: forwardedFor(`192.0.2.${100 + index}`),
    })
    await response.arrayBuffer()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return { alone, flooded, flooders, worstQueryMs: times[2] ?? 0 }
}

async function measure(engine: string, databaseUrl: string): Promise<void> {
  const server = await startProductionServer({
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: '127.0.0.1',
    DEMO_POSTS: '0',
  })
  try {
    const probes: ProbeResult[] = []
    for (const each of PROBES) probes.push(await probe(server, each))
    const flooding = await flood(server)
    report(engine, probes, flooding)
  } finally {
    await server.stop()
  }
}

const ms = (value: number) => value.toFixed(1)

function report(engine: string, probes: readonly ProbeResult[], result: FloodResult): void {
  const out = (line: string) => process.stdout.write(`${line}\n`)
  out(`\n${engine}, ${posts.toLocaleString('en')} posts: long inputs, one at a time`)
  out(
    `${'input'.padEnd(34)}${'status'.padStart(7)}${'median ms'.padStart(11)}${'slowest ms'.padStart(12)}${'CPU ms/req'.padStart(12)}  answer`,
  )
  for (const p of probes) {
    const cpu = p.cpuMs === undefined ? '-' : ms(p.cpuMs)
    out(
      `${p.name.padEnd(34)}${p.answered.padStart(7)}${ms(p.medianMs).padStart(11)}${ms(p.slowestMs).padStart(12)}${cpu.padStart(12)}  ${p.right ? 'the domain’s refusal' : 'WRONG'}`,
    )
  }
  const slowest = Math.max(...probes.filter((p) => !p.reference).map((p) => p.medianMs))
  out(
    `Slowest median ${ms(slowest)} ms (target under ${LONG_INPUT_TARGET_MS} ms each: ${slowest < LONG_INPUT_TARGET_MS ? 'met' : 'MISSED'})`,
  )
  out(
    `\n${engine}: a visitor's GET /api/news while two clients flood searches (${floodConnections} connections each, ${duration} s; ${SEARCH_LIMITS.terms}-word worst queries)`,
  )
  const { alone, flooded, flooders } = result
  out(`visitor alone:    p50 ${alone.latency.p50} ms, p99 ${alone.latency.p99} ms`)
  out(`visitor, flooded: p50 ${flooded.latency.p50} ms, p99 ${flooded.latency.p99} ms`)
  flooders.forEach((f, index) => {
    const codes = Object.entries(f.statusCodeStats ?? {})
      .map(([code, { count }]) => `${count} × ${code}`)
      .join(', ')
    out(`flooder ${index + 1}: ${f.requests.total} requests (${codes}), ${f.errors} errors`)
  })
  out(`a worst search alone, afterwards: median ${ms(result.worstQueryMs)} ms of 5`)
  const met = flooded.latency.p50 < VISITOR_P50_TARGET_MS
  out(
    `Visitor p50 under flood ${flooded.latency.p50} ms (target under ${VISITOR_P50_TARGET_MS} ms: ${met ? 'met' : 'MISSED'})`,
  )
}

const work = mkdtempSync(join(tmpdir(), 'newswire-attack-'))

async function main(): Promise<void> {
  const path = join(work, 'attack.db')
  let started = Date.now()
  await seedSqlite(path, posts, { searchable: true })
  process.stdout.write(
    `Seeded ${posts.toLocaleString('en')} posts in SQLite in ${Date.now() - started} ms\n`,
  )
  await measure('SQLite', `sqlite:${path}`)
  if (!postgresUrl) {
    process.stdout.write('\nPostgreSQL: skipped (set TEST_POSTGRES_URL or BENCH_POSTGRES_URL)\n')
    return
  }
  started = Date.now()
  const schema = await seedPostgres(postgresUrl, posts)
  process.stdout.write(
    `\nSeeded ${posts.toLocaleString('en')} posts in PostgreSQL in ${Date.now() - started} ms\n`,
  )
  try {
    await measure('PostgreSQL', schema.url)
  } finally {
    await schema.drop()
  }
}

runBench('bench:attack-inputs', main, work)
