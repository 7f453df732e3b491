import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { onLines } from '../support/lines'

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams
  readonly base: string
  /** Every log line so far, parsed. */
  readonly logs: Record<string, unknown>[]
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  readonly exited: Promise<number | string>
}

/**
 * The compiled server (tests/global-setup.ts built it from the sources), run by node alone in
 * one process, so that a signal reaches it directly: no TypeScript compiled at each start.
 */
export const COMPILED_SERVER = [process.execPath, 'dist-node/server.js']

/** What an operator runs: npm, which runs the compiled server (tests/global-setup.ts built it). */
export const NPM_START = ['npm', '--silent', 'start', '--', '--no-build']

/**
 * Starts the server (the compiled one unless `command` says otherwise) and waits until it says
 * where it listens.
 */
export function startServerProcess(
  env: Record<string, string>,
  command: readonly string[] = COMPILED_SERVER,
): Promise<ServerProcess> {
  const [program = '', ...args] = command
  const child = spawn(program, args, {
    cwd: REPO_ROOT,
    // No spam budget (10 new posts an hour) unless a test sets one: tests make many posts.
    env: { ...process.env, ...PROCESS_ENV, CREATE_RATE_LIMIT: '0', ...env },
  })
  const logs: Record<string, unknown>[] = []
  let stderr = ''
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'))
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })

  return new Promise((resolve, reject) => {
    onLines(child.stdout, (line) => {
      if (!line.startsWith('{')) return
      const entry = JSON.parse(line) as Record<string, unknown>
      logs.push(entry)
      if (typeof entry.port === 'number' && typeof entry.url === 'string') {
        resolve({ child, base: `http://127.0.0.1:${entry.port}`, logs, exited })
      }
    })
    void exited.then((code) =>
      reject(new Error(`the server ended (${code}) before listening: ${stderr}`)),
    )
  })
}

/** The environment every test's server process starts with, unless the test says otherwise. */
export const PROCESS_ENV = { HOST: '127.0.0.1', PORT: '0', DEMO_POSTS: '0' } as const

/**
 * A `start` for the tests of the suite it is called in: each process it starts is killed
 * (SIGKILL, or `stop`'s SIGTERM) after the test that started it.
 */
export function useServerProcesses(stop: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): {
  start(env: Record<string, string>, command?: readonly string[]): Promise<ServerProcess>
  /** Ends every process started so far, at once. */
  stopAll(): Promise<void>
} {
  const running: ServerProcess[] = []
  const stopAll = async () => {
    for (const server of running.splice(0)) {
      server.child.kill(stop)
      if (stop === 'SIGTERM') await server.exited
    }
  }
  afterEach(stopAll)
  return {
    stopAll,
    async start(env, command) {
      const server = await startServerProcess(env, command)
      running.push(server)
      return server
    },
  }
}

/** Stops `server` as a process manager does (SIGTERM), if it runs; answers how it ended. */
export async function stopServerProcess(
  server: ServerProcess | undefined,
): Promise<number | string | undefined> {
  server?.child.kill('SIGTERM')
  return server?.exited
}
