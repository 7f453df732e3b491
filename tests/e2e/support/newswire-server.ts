import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onLines } from '../../support/lines'
import { REPO_ROOT } from './paths'

export interface EmailJsAccount {
  readonly origin: string
  readonly serviceId: string
  readonly templateId: string
  readonly publicKey: string
}

export interface NewsWireServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string
  /** The SQLite file behind this server. */
  readonly databasePath: string
  readonly databaseUrl: string
  /** What the server has logged so far, one line each. */
  readonly logs: string[]
  stop(): Promise<void>
}

/** Variables the server reads; none may leak in from the shell that runs the suite. */
const SERVER_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'EMAILJS_SERVICE_ID',
  'EMAILJS_TEMPLATE_ID',
  'EMAILJS_PUBLIC_KEY',
  'EMAILJS_ORIGIN',
  'WRITE_RATE_LIMIT',
  'CREATE_RATE_LIMIT',
  'SEARCH_RATE_LIMIT',
  'DEMO_POSTS',
  'TRASH_DAYS',
  'TRUST_PROXY',
  'KEEP_ALIVE_TIMEOUT',
]

const START_TIMEOUT_MS = 30_000

/**
 * Starts the real server (scripts/start.mjs, as `npm start` does) on a free port, over a fresh
 * SQLite database in a temp folder. It serves the dist/ that global setup built. Without
 * `emailjs` the built-in outbox answers the contact form.
 */
export async function startNewsWire(
  emailjs?: EmailJsAccount,
  /** Server variables over the defaults above, such as a WRITE_RATE_LIMIT to reach. */
  settings: Readonly<Record<string, string>> = {},
): Promise<NewsWireServer> {
  const folder = mkdtempSync(join(tmpdir(), 'newswire-e2e-'))
  const databasePath = join(folder, 'newswire.db')
  const databaseUrl = `sqlite:${databasePath}`
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of SERVER_VARIABLES) delete env[name]
  Object.assign(env, {
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    WRITE_RATE_LIMIT: '0',
    CREATE_RATE_LIMIT: '0',
    SEARCH_RATE_LIMIT: '0',
    DEMO_POSTS: '0',
    // The browser is behind a proxy on this machine: each test is its own visitor, by the
    // address the fixtures give it in X-Forwarded-For (fixtures.ts, visitorOf).
    TRUST_PROXY: 'loopback',
    // Node's fetch keeps an idle connection until 1 s before the server's keep-alive timeout
    // ends; at 5 s, a test that waited about that long could reuse a connection as the server
    // closed it ('fetch failed'). No test waits a minute.
    KEEP_ALIVE_TIMEOUT: '60',
    ...(emailjs && {
      EMAILJS_ORIGIN: emailjs.origin,
      EMAILJS_SERVICE_ID: emailjs.serviceId,
      EMAILJS_TEMPLATE_ID: emailjs.templateId,
      EMAILJS_PUBLIC_KEY: emailjs.publicKey,
    }),
    ...settings,
  })

  // What `npm start` runs, minus its build checks: global setup has just built dist/ and the
  // compiled server.
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const logs: string[] = []
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(String(code ?? signal)))
  })
  const cleanUp = () => rmSync(folder, { recursive: true, force: true })

  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the server did not listen within ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      )
      onLines(child.stdout, (line) => {
        if (line.trim() === '') return
        logs.push(line)
        const port = listeningPort(line)
        if (port !== undefined) {
          clearTimeout(timer)
          resolve(port)
        }
      })
      child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')))
      void exited.then((code) => {
        clearTimeout(timer)
        reject(new Error(`the server ended (${code}) before it listened`))
      })
    })
    return {
      origin: `http://127.0.0.1:${port}`,
      databasePath,
      databaseUrl,
      logs,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        await exited
        cleanUp()
      },
    }
  } catch (error) {
    child.kill('SIGKILL')
    await exited
    cleanUp()
    throw new Error(`NewsWire could not start: ${String(error)}\n${logs.join('\n')}`, {
      cause: error,
    })
  }
}

/** The port from the server's 'NewsWire listening' log line (pino JSON), if this is that line. */
function listeningPort(line: string): number | undefined {
  try {
    const entry = JSON.parse(line) as Record<string, unknown>
    return typeof entry.port === 'number' && typeof entry.url === 'string' ? entry.port : undefined
  } catch {
    return undefined
  }
}
