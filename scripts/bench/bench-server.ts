import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface BenchServer {
  /** `http://127.0.0.1:PORT` */
  readonly base: string
  /**
   * The CPU time the server process has used so far, in ms (user + system, from /proc on Linux;
   * undefined elsewhere). Per request it shows the server's own cost, which other processes
   * on a busy machine disturb far less than they disturb latency.
   */
  cpuMs(): number | undefined
  /** Whether the process is still running (a benchmark that attacks it asks). */
  running(): boolean

  /** The server process's resident memory in bytes (VmRSS from /proc on Linux; undefined elsewhere). */
  rssBytes(): number | undefined
  stop(): Promise<void>
}

/**
 * Starts NewsWire's real composition root in its own process (scripts/bench/api-server.ts,
 * request logs off), so that the load generator in this process does not share its CPU time.
 * Settings come from `env`, as for `npm start`. With BENCH_CPU_PROF=FOLDER set, the server
 * writes a V8 CPU profile (open it in Chrome's DevTools) into FOLDER when it stops.
 */
export function startBenchServer(env: Record<string, string>): Promise<BenchServer> {
  const profile = process.env.BENCH_CPU_PROF?.trim()
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []
  const child = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', 'scripts/bench/api-server.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DEMO_POSTS: '0',
        WRITE_RATE_LIMIT: '0',
        CREATE_RATE_LIMIT: '0',
        SEARCH_RATE_LIMIT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  return new Promise((resolve, reject) => {
    let text = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8')
      const line = text.split('\n', 1)[0]
      if (line === undefined || !text.includes('\n')) return
      const { port } = JSON.parse(line) as { port: number }
      resolve({
        base: `http://127.0.0.1:${port}`,
        cpuMs: () => cpuMsOf(child.pid),
        running: () => child.exitCode === null && child.signalCode === null,

        rssBytes: () => rssBytesOf(child.pid),
        stop: () => stop(child),
      })
    })
    child.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)))
  })
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })
}

/** utime + stime of a process from /proc/PID/stat, in ms; undefined where there is no /proc. */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The fields after the command name (which may hold spaces) start after its ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    // Linux reports in USER_HZ, 100 per second on every common build.
    return Number.isFinite(ticks) ? ticks * 10 : undefined
  } catch {
    return undefined
  }
}

/** VmRSS of a process from /proc/PID/status, in bytes; undefined where there is no /proc. */
function rssBytesOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kib === undefined ? undefined : Number(kib) * 1024
  } catch {
    return undefined
  }
}

/** The server's CPU µs per request over a run, from cpuMs() before and after it. */
export function cpuPerRequest(
  before: number | undefined,
  after: number | undefined,
  result: { readonly requests: { readonly total: number } },
): number | undefined {
  if (before === undefined || after === undefined || result.requests.total === 0) return undefined
  return ((after - before) * 1000) / result.requests.total
}
