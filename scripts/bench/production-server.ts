import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { cpuMsOf } from './bench-server'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Room for `vite build` on a busy machine before the server answers. */
const START_TIMEOUT_MS = 180_000

/** Variables the server reads that must not leak in from the shell that runs the bench. */
const SERVER_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DEMO_POSTS',
  'PUBLIC_URL',
  'TRUST_PROXY',
  'SEARCH_RATE_LIMIT',
  'CREATE_RATE_LIMIT',
]

export interface ProductionServer {
  /** `http://127.0.0.1:PORT` */
  readonly base: string
  /** The CPU time the server process has used so far, in ms (see BenchServer.cpuMs). */
  cpuMs(): number | undefined
  stop(): Promise<void>
}

/**
 * Starts NewsWire as `npm start` does (scripts/start.mjs: `vite build` and the server's compile
 * first when stale, then the compiled production server, NODE_ENV=production), on a free port,
 * in its own process, so that what a browser measures is what visitors get. Settings come from
 * `env`. Its request logs are dropped; the build's output is passed on to this process's stderr.
 * With BENCH_CPU_PROF=FOLDER set, the server writes a V8 CPU profile into FOLDER when it stops.
 */
export function startProductionServer(env: Record<string, string>): Promise<ProductionServer> {
  const clean: NodeJS.ProcessEnv = { ...process.env }
  for (const name of SERVER_VARIABLES) delete clean[name]
  const profile = process.env.BENCH_CPU_PROF?.trim()
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []
  const child = spawn(process.execPath, [...flags, 'scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...clean, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(child)
      reject(new Error(`the server did not listen within ${START_TIMEOUT_MS / 1000} s`))
    }, START_TIMEOUT_MS)
    let pending = ''
    let listening = false
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8')
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        if (listening) continue
        const port = listeningPort(line)
        if (port === undefined) {
          if (!line.startsWith('{')) process.stderr.write(`${line}\n`)
          continue
        }
        listening = true
        clearTimeout(timer)
        resolve({
          base: `http://127.0.0.1:${port}`,
          cpuMs: () => cpuMsOf(child.pid),
          stop: () => stop(child),
        })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited with ${code} before it listened`))
    })
  })
}

/** The port from the server's "listening" log line (JSON, one per line), if `line` is it. */
function listeningPort(line: string): number | undefined {
  if (!line.startsWith('{')) return undefined
  try {
    const entry = JSON.parse(line) as { msg?: unknown; port?: unknown }
    const isListening = typeof entry.msg === 'string' && entry.msg.startsWith('NewsWire listening')
    return isListening && typeof entry.port === 'number' ? entry.port : undefined
  } catch {
    return undefined
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })
}
