import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface BenchServer {
  /** `http://127.0.0.1:PORT` */
  readonly base: string
  stop(): Promise<void>
}

/**
 * Starts NewsWire's real composition root in its own process (scripts/bench/api-server.ts,
 * request logs off), so that the load generator in this process does not share its CPU time.
 * Settings come from `env`, as for `npm start`.
 */
export function startBenchServer(env: Record<string, string>): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/api-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, DEMO_POSTS: '0', WRITE_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let text = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8')
      const line = text.split('\n', 1)[0]
      if (line === undefined || !text.includes('\n')) return
      const { port } = JSON.parse(line) as { port: number }
      resolve({ base: `http://127.0.0.1:${port}`, stop: () => stop(child) })
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
