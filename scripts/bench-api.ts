/**
 * `npm run bench:api`: how fast GET /api/news answers its first page, beside a ceiling and a
 * baseline. It stores 1,000 posts in a temporary SQLite database, then measures with autocannon
 * over loopback, one server at a time (each in its own process, the others idle):
 *   - NewsWire: the real composition root and app, request logs off;
 *   - NewsWire with request logs: `src/composition/server/main.ts` as `npm start` runs it;
 *   - NewsWire with metrics: the first, with METRICS_TOKEN set, so that every request is counted;
 *   - the ceiling: bare node:http answering the exact bytes and headers of our first page;
 *   - json-server 0.17 over the same posts (`/news?_sort=createdAt&_order=desc&_limit=24`).
 * It prints req/s, latency, each figure against the ceiling, and whether the targets are met
 * (NewsWire ≥ 0.5 × ceiling, ≥ 10 × json-server). A missed target never fails the run.
 * Servers are measured in turn, in rounds; each figure is its best round.
 * Options: --duration S (default 5), --connections N (default 10), --warmup S (default 1),
 * --rounds N (default 2).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import type { NewsItem } from '@/domain/news-item.entity'
import { openDatabase } from '@/adapters/sql/database'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { SqlNewsStore } from '@/adapters/sql/news/store'
import { autocannon, type AutocannonResult } from './bench/autocannon'
import { benchOptions } from './bench/options'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const POSTS = 1000
const FIRST_PAGE = '/api/news'
const JSON_SERVER_PAGE = '/news?_sort=createdAt&_order=desc&_limit=24'
const TARGETS = { ceiling: 0.5, jsonServer: 10 } as const
const CEILING = 'bare node:http (ceiling)'
const OURS = 'NewsWire (Fastify)'
const OURS_LOGGED = 'NewsWire, request logs on'
const OURS_METERED = 'NewsWire, metrics on'
const JSON_SERVER = 'json-server 0.17'

const { duration, connections, warmup, rounds } = benchOptions({
  duration: [5, 1, 60],
  connections: [10, 1, 200],
  warmup: [1, 0, 30],
  rounds: [2, 1, 10],
})

const children = new Set<ChildProcess>()
const work = mkdtempSync(join(tmpdir(), 'newswire-bench-'))

interface Row {
  readonly name: string
  readonly result: AutocannonResult
}

async function main(): Promise<void> {
  const dbPath = join(work, 'bench.db')
  process.stdout.write(`Storing ${POSTS} posts in ${dbPath} …\n`)
  const items = await seed(`sqlite:${dbPath}`)
  const dbJson = join(work, 'db.json')
  writeFileSync(dbJson, JSON.stringify({ news: items }))

  const env = {
    DATABASE_URL: `sqlite:${dbPath}`,
    DEMO_POSTS: '0',
    WRITE_RATE_LIMIT: '0',
    CREATE_RATE_LIMIT: '0',
    HOST: '127.0.0.1',
  }
  // Every server starts first and waits idle; then rounds measure them in turn, so that a
  // busy moment on the machine does not land on one server only. The best round counts.
  const ours = await startReportingPort(['--import', 'tsx', 'scripts/bench/api-server.ts'], env)
  const metered = await startReportingPort(['--import', 'tsx', 'scripts/bench/api-server.ts'], {
    ...env,
    METRICS_TOKEN: 'bench-metrics-token-0123456789',
  })
  const recorded = await record(`${ours.base}${FIRST_PAGE}`)
  const recordedFile = join(work, 'first-page.json')
  writeFileSync(recordedFile, JSON.stringify(recorded))
  const ceiling = await startReportingPort(
    ['--import', 'tsx', 'scripts/bench/api-ceiling-server.ts', recordedFile],
    {},
  )
  const same = await record(`${ceiling.base}${FIRST_PAGE}`)
  if (same.body !== recorded.body) throw new Error('the ceiling does not answer our bytes')
  const logged = await startOnPort(
    ['--import', 'tsx', 'src/composition/server/main.ts'],
    env,
    '/api/health',
    join(work, 'server.log'),
  )
  const jsonServer = await startOnPort(
    [
      join(ROOT, 'node_modules/json-server/lib/cli/bin.js'),
      dbJson,
      '--id',
      '_id',
      '--quiet',
      '--read-only',
      '--host',
      '127.0.0.1',
      '--port',
    ],
    {},
    JSON_SERVER_PAGE,
  )
  const sample = (await (await fetch(`${jsonServer.base}${JSON_SERVER_PAGE}`)).json()) as unknown[]
  if (sample.length !== 24) throw new Error(`json-server answered ${sample.length} posts, not 24`)

  const targets = [
    { name: CEILING, url: `${ceiling.base}${FIRST_PAGE}` },
    { name: OURS, url: `${ours.base}${FIRST_PAGE}` },
    { name: OURS_LOGGED, url: `${logged.base}${FIRST_PAGE}` },
    { name: OURS_METERED, url: `${metered.base}${FIRST_PAGE}` },
    { name: JSON_SERVER, url: `${jsonServer.base}${JSON_SERVER_PAGE}` },
  ]
  const best = new Map<string, AutocannonResult>()
  for (let round = 1; round <= rounds; round += 1) {
    process.stdout.write(`round ${round} of ${rounds} …\n`)
    for (const { name, url } of targets) {
      const result = await measure(url)
      const previous = best.get(name)
      if (previous === undefined || result.requests.average > previous.requests.average) {
        best.set(name, result)
      }
    }
  }
  for (const started of [ours, metered, ceiling, logged, jsonServer]) await stop(started.child)

  const rows = targets.flatMap(({ name }) => {
    const result = best.get(name)
    return result === undefined ? [] : [{ name, result }]
  })
  report(rows, Buffer.from(recorded.body, 'base64').length)
}

async function seed(url: string): Promise<NewsItem[]> {
  const database = await openDatabase(url)
  try {
    const repository = new JournaledNewsRepository(new SqlNewsStore(database))
    let random = 42
    const next = (max: number) => {
      random = (random * 1_103_515_245 + 12_345) % 2 ** 31
      return 1 + (random % max)
    }
    const words = (count: number) =>
      Array.from({ length: count }, (_, i) => ['news', 'harbour', 'city', 'river', 'market'][i % 5])
        .join(' ')
        .slice(0, count * 6)
    for (let i = 0; i < POSTS; i += 1) {
      await repository.create({
        title: `Post ${i}: ${words(next(12))}`.slice(0, 100),
        body: words(20 + next(60)).slice(0, 500),
        author: `Author ${next(50)}`,
      })
    }
    const items: NewsItem[] = []
    let cursor: string | undefined
    do {
      const page = await repository.list({ limit: 100, cursor })
      items.push(...page.items)
      cursor = page.next
    } while (cursor !== undefined)
    return items
  } finally {
    await database.close()
  }
}

interface Recorded {
  readonly status: number
  readonly headers: [string, string][]
  readonly body: string
}

async function record(url: string): Promise<Recorded> {
  // Without Accept-Encoding, as autocannon asks.
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } })
  const body = Buffer.from(await response.arrayBuffer())
  return { status: response.status, headers: [...response.headers], body: body.toString('base64') }
}

async function measure(url: string): Promise<AutocannonResult> {
  if (warmup > 0) await autocannon({ url, connections, duration: warmup, pipelining: 1 })
  const result = await autocannon({ url, connections, duration, pipelining: 1 })
  if (result.non2xx > 0 || result.errors > 0) {
    process.stdout.write(`  ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors\n`)
  }
  return result
}

interface Started {
  readonly child: ChildProcess
  readonly base: string
}

/** Starts a helper that prints {"port":N} on its first line. */
function startReportingPort(args: string[], env: Record<string, string>): Promise<Started> {
  const child = spawnNode(args, env, 'pipe')
  return new Promise((resolve, reject) => {
    let text = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8')
      const line = text.split('\n', 1)[0]
      if (text.includes('\n') && line !== undefined) {
        const { port } = JSON.parse(line) as { port: number }
        resolve({ child, base: `http://127.0.0.1:${port}` })
      }
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} ended with ${code}`)))
  })
}

/** Starts a server on a free port (appended to args, or as PORT) and waits until `ready` answers. */
async function startOnPort(
  args: string[],
  env: Record<string, string>,
  ready: string,
  logFile?: string,
): Promise<Started> {
  const port = await freePort()
  const portInArgs = args.at(-1) === '--port'
  const output = logFile === undefined ? 'ignore' : openSync(logFile, 'w')
  const child = spawnNode(
    portInArgs ? [...args, String(port)] : args,
    { ...env, PORT: String(port) },
    output,
  )
  if (typeof output === 'number') closeSync(output)
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} ended with ${child.exitCode}`)
    const answered = await fetch(`${base}${ready}`).then(
      (response) => response.ok,
      () => false,
    )
    if (answered) return { child, base }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${args.join(' ')} did not answer within 30 s`)
}

function spawnNode(
  args: string[],
  env: Record<string, string>,
  stdout: 'pipe' | 'ignore' | number,
): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  return child
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

function report(rows: readonly Row[], bodyBytes: number): void {
  const rate = (name: string) => rows.find((row) => row.name === name)?.result.requests.average ?? 0
  const ceiling = rate(CEILING)
  const ours = rate(OURS)
  const jsonServer = rate(JSON_SERVER)
  const number = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 })

  process.stdout.write(
    `\nGET ${FIRST_PAGE} (first page: 24 of ${POSTS} posts, ${bodyBytes} bytes), ` +
      `${connections} connections, ${duration} s after ${warmup} s warm-up, best of ${rounds} rounds, ` +
      `Node ${process.version}, ${availableParallelism()} CPUs\n\n`,
  )
  process.stdout.write(
    `${'server'.padEnd(28)}${'req/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'× ceiling'.padStart(12)}\n`,
  )
  for (const { name, result } of rows) {
    process.stdout.write(
      `${name.padEnd(28)}${number.format(result.requests.average).padStart(10)}` +
        `${String(result.latency.p50).padStart(9)}${String(result.latency.p99).padStart(9)}` +
        `${(result.requests.average / ceiling).toFixed(2).padStart(12)}\n`,
    )
  }
  const toCeiling = ours / ceiling
  const toJsonServer = ours / jsonServer
  process.stdout.write(`\nNewsWire / json-server: ${toJsonServer.toFixed(1)}×\n`)
  process.stdout.write(
    `target NewsWire ≥ ${TARGETS.ceiling} × ceiling: ${toCeiling >= TARGETS.ceiling ? 'met' : 'MISSED'} (${toCeiling.toFixed(2)})\n` +
      `target NewsWire ≥ ${TARGETS.jsonServer} × json-server: ${toJsonServer >= TARGETS.jsonServer ? 'met' : 'MISSED'} (${toJsonServer.toFixed(1)}×)\n`,
  )
}

function cleanUp(): void {
  for (const child of children) child.kill('SIGKILL')
  rmSync(work, { recursive: true, force: true })
}

process.once('SIGINT', () => {
  cleanUp()
  process.exit(130)
})

try {
  await main()
} catch (error) {
  // A broken run is reported, not thrown: the benchmark never fails a build.
  process.stdout.write(`The API benchmark could not run: ${String(error)}\n`)
} finally {
  cleanUp()
}
