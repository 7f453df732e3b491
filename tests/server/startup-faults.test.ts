import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeStartupFailure } from '@/composition/server/startup-errors'
import { COMPILED_SERVER, PROCESS_ENV, REPO_ROOT } from './server-process'

/** A fault must be reported and the process gone well within this. */
const EXIT_WITHIN_MS = 10_000

interface Ended {
  readonly code: number | null
  readonly ms: number
  /** The lines an operator reads: all of stderr, and stdout without the JSON info logs. */
  readonly said: readonly string[]
}

const runsAsRoot = process.getuid?.() === 0

/**
 * The capabilities that let root read and write past a file's mode. Dropped from the bounding
 * set, root keeps its own user (so it still reads a clone in a folder only it may enter, as
 * `mktemp -d` or a 0700 home makes them) but obeys the modes of the folders under test.
 */
const PAST_FILE_MODES = '-dac_override,-dac_read_search'

/**
 * Runs the compiled server (or `npm start`'s script) with node until it ends. `unprivileged`
 * makes it obey file modes: as root, without the capabilities that override them.
 */
function startServer(
  env: Record<string, string>,
  { node = COMPILED_SERVER, unprivileged = false } = {},
): Promise<Ended> {
  const [command, ...rest] =
    unprivileged && runsAsRoot
      ? ['setpriv', `--bounding-set=${PAST_FILE_MODES}`, '--', ...node]
      : node
  const started = Date.now()
  const child = spawn(command as string, rest, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...PROCESS_ENV, DATABASE_URL: 'sqlite::memory:', DEBUG: '', ...env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  // A hang is the fault under test; stop it rather than the suite.
  const guard = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS * 2)
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(guard)
      const said = [...stderr.split('\n'), ...stdout.split('\n').filter((line) => !isInfoLog(line))]
      resolve({ code, ms: Date.now() - started, said: said.filter((line) => line.trim() !== '') })
    })
  })
}

function isInfoLog(line: string): boolean {
  try {
    const entry = JSON.parse(line) as { level?: unknown }
    return typeof entry.level === 'number' && entry.level < 40
  } catch {
    return false
  }
}

/** Exit non-zero within seconds, with one or two plain lines and no stack. */
function expectClearFailure(ended: Ended, names: RegExp): void {
  expect(ended.code).not.toBe(0)
  expect(ended.code).not.toBeNull()
  expect(ended.ms).toBeLessThan(EXIT_WITHIN_MS)
  expect(ended.said.length).toBeGreaterThanOrEqual(1)
  expect(ended.said.length).toBeLessThanOrEqual(2)
  expect(ended.said.filter((line) => /^\s+at /.test(line))).toEqual([])
  expect(ended.said[0]).toMatch(/^NewsWire could not start: /)
  expect(ended.said.join('\n')).toMatch(names)
}

const folders: string[] = []

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'newswire-faults-'))
  folders.push(folder)
  return folder
}

afterAll(() => {
  // The read-only folders are empty, so their parents' rights suffice to remove them.
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

function listenOnAFreePort(): Promise<Server> {
  const server = createServer()
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

// Each test starts a real process, and the PostgreSQL one waits out its retries.
describe('a start-up fault', { timeout: EXIT_WITHIN_MS * 3 }, () => {
  it('names the port in use and suggests PORT, before it opens the database', async () => {
    const taken = await listenOnAFreePort()
    try {
      const port = (taken.address() as AddressInfo).port
      const database = join(tempFolder(), 'news.db')
      const ended = await startServer({ PORT: String(port), DATABASE_URL: `sqlite:${database}` })
      expectClearFailure(ended, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`))
      expect(ended.said.join('\n')).toMatch(/set PORT/)
      // Nothing was migrated or purged: the database was never created.
      expect(existsSync(database)).toBe(false)
    } finally {
      taken.close()
    }
  })

  it('says the same through npm start', async () => {
    const taken = await listenOnAFreePort()
    try {
      const port = (taken.address() as AddressInfo).port
      const ended = await startServer(
        { PORT: String(port) },
        { node: [process.execPath, 'scripts/start.mjs', '--no-build'] },
      )
      expectClearFailure(ended, new RegExp(`port ${port} .*already in use`))
    } finally {
      taken.close()
    }
  })

  it('names the PostgreSQL host and port, not the password, after retrying a few seconds', async () => {
    // Port 1 on the loopback refuses at once, so the wait is the retries' alone.
    const ended = await startServer({
      DATABASE_URL: 'postgres://news:hunter2@127.0.0.1:1/newswire',
    })
    expectClearFailure(ended, /nothing answers at 127\.0\.0\.1:1\b/)
    expect(ended.said.join('\n')).toMatch(/Start PostgreSQL, or fix the host and port/)
    expect(ended.said.join('\n')).not.toMatch(/hunter2/)
    expect(ended.ms).toBeGreaterThan(3_000)
  })

  it('names the SQLite folder that is a file', async () => {
    const folder = tempFolder()
    writeFileSync(join(folder, 'plain'), 'not a folder')
    const ended = await startServer({ DATABASE_URL: `sqlite:${join(folder, 'plain', 'news.db')}` })
    expectClearFailure(ended, new RegExp(`${join(folder, 'plain')} is a file, not a folder`))
  })

  it.each([
    [
      'cannot be created',
      ['sub', 'news.db'],
      /cannot create the folder .*read-only\/sub \(EACCES\)/,
    ],
    ['cannot be written', ['news.db'], /cannot write in the folder .*read-only \(EACCES\)/],
  ])('names the SQLite folder that %s', async (_fault, inside, names) => {
    const folder = tempFolder()
    const readOnly = join(folder, 'read-only')
    mkdirSync(readOnly, { mode: 0o555 })
    const ended = await startServer(
      { DATABASE_URL: `sqlite:${join(readOnly, ...inside)}` },
      { unprivileged: true },
    )
    expectClearFailure(ended, names)
  })

  it.runIf(existsSync('/proc/self'))('refuses a path under /proc instead of hanging', async () => {
    const ended = await startServer({ DATABASE_URL: 'sqlite:/proc/newswire/news.db' })
    expectClearFailure(ended, /\/proc\/newswire\/news\.db is under \/proc/)
  })

  it('refuses an unknown DATABASE_URL scheme on one line, without echoing it', async () => {
    const ended = await startServer({ DATABASE_URL: 'mysql://root:hunter2@db/news' })
    expectClearFailure(ended, /DATABASE_URL must be sqlite:PATH/)
    expect(ended.said).toHaveLength(1)
    expect(ended.said.join('\n')).not.toMatch(/hunter2/)
  })

  it('names a HOST that does not resolve', async () => {
    // .invalid never resolves (RFC 6761).
    const ended = await startServer({ HOST: 'newswire-no-such-host.invalid' })
    expectClearFailure(ended, /HOST newswire-no-such-host\.invalid does not resolve/)
  })

  it('adds the stack when DEBUG is set', async () => {
    const folder = tempFolder()
    writeFileSync(join(folder, 'plain'), 'not a folder')
    const ended = await startServer({
      DATABASE_URL: `sqlite:${join(folder, 'plain', 'news.db')}`,
      DEBUG: '1',
    })
    expect(ended.code).toBe(1)
    expect(ended.said.some((line) => /^\s+at /.test(line))).toBe(true)
  })
})

describe('an unexpected start-up failure', () => {
  it('is one line with its message and no stack', () => {
    const error = new Error('the disk said no\nin two lines')
    expect(describeStartupFailure(error, { host: 'localhost', port: 3000 })).toEqual([
      'NewsWire could not start: the disk said no in two lines',
    ])
  })

  it('is not mistaken for a port fault when its code only looks like one', () => {
    const error = Object.assign(new Error('EACCES: permission denied, open dist/index.html'), {
      code: 'EACCES',
      syscall: 'open',
    })
    expect(describeStartupFailure(error, { host: 'localhost', port: 3000 })).toEqual([
      'NewsWire could not start: EACCES: permission denied, open dist/index.html',
    ])
  })
})
