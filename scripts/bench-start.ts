/**
 * `npm run bench:start`: how soon an operator gets an answer on a built tree. It prints, as the
 * median of RUNS runs: the time from starting `node scripts/start.mjs` (what `npm start` runs)
 * to the first 200 from /api/health on a fresh SQLite database (target 1.5 s), and the time of
 * `npm run news -- --help` (target 1 s). It builds first if the tree is stale; it never fails on
 * a target.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureBrowserBuilt, ensureServerBuilt } from './built.mjs'
import { runBench } from './bench/run-bench'

const RUNS = 5
const START_LIMIT_MS = 30_000

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/** Milliseconds from spawning the server to its first 200 from /api/health. */
async function timeToFirstAnswer(work: string, run: number): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(work, `start-${run}`, 'news.db')}`,
    },
    stdio: 'ignore',
  })
  try {
    while (performance.now() - started < START_LIMIT_MS) {
      const answered = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.status === 200,
        () => false,
      )
      if (answered) return performance.now() - started
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`no answer within ${START_LIMIT_MS} ms`)
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

function timeOfNewsHelp(): number {
  const started = performance.now()
  const run = spawnSync('npm', ['run', '-s', 'news', '--', '--help'], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`npm run news -- --help failed: ${run.stderr}`)
  return performance.now() - started
}

async function main(work: string): Promise<void> {
  ensureBrowserBuilt()
  await ensureServerBuilt()
  const starts: number[] = []
  for (let run = 0; run < RUNS; run += 1) starts.push(await timeToFirstAnswer(work, run))
  const helps = Array.from({ length: RUNS }, timeOfNewsHelp)
  const row = (name: string, values: number[], target: number) =>
    `${name.padEnd(40)}${median(values).toFixed(0).padStart(7)} ms  (runs ${values.map((value) => value.toFixed(0)).join(', ')}; target ${target} ms: ${median(values) <= target ? 'met' : 'MISSED'})`
  console.log(`\nStarting on a built tree, median of ${RUNS}`)
  console.log(row('npm start to the first answer', starts, 1_500))
  console.log(row('npm run news -- --help', helps, 1_000))
}

const work = mkdtempSync(join(tmpdir(), 'newswire-bench-start-'))
runBench('bench:start', () => main(work), work)
