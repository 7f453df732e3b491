import { request as httpRequest, type ClientRequest } from 'node:http'
import { join } from 'node:path'
import { tempDir } from './server-fixture'
import { NPM_START, startServerProcess, type ServerProcess } from './server-process'

const running: ServerProcess[] = []
const held: ClientRequest[] = []

afterEach(() => {
  for (const request of held.splice(0)) request.destroy()
  for (const server of running.splice(0)) server.child.kill('SIGKILL')
})

async function start(): Promise<ServerProcess> {
  const server = await startServerProcess({
    DATABASE_URL: `sqlite:${join(tempDir('newswire-db-'), 'news.db')}`,
  })
  running.push(server)
  return server
}

/** A request the server has begun (its 100 Continue says so) whose body never comes. */
function holdARequest(server: ServerProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.base}/api/news`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': 100,
        expect: '100-continue',
      },
    })
    held.push(request)
    request.on('error', () => undefined)
    request.once('continue', () => resolve())
    request.once('response', () => reject(new Error('the held request was answered')))
    request.flushHeaders()
  })
}

async function logged(server: ServerProcess, message: string): Promise<void> {
  while (!server.logs.some((entry) => entry.msg === message)) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('stopping the server process', () => {
  it('exits 1 at once on a second signal while a request is still in flight', async () => {
    const server = await start()
    await holdARequest(server)
    server.child.kill('SIGTERM')
    await logged(server, 'shutting down: finishing the requests in flight')
    const secondSignal = Date.now()
    server.child.kill('SIGINT')

    expect(await server.exited).toBe(1)
    expect(Date.now() - secondSignal).toBeLessThan(2_000)
    expect(server.logs.map((entry) => entry.msg)).toContain('second signal: stopping at once')
    expect(server.logs.map((entry) => entry.msg)).not.toContain('stopped')
  }, 30_000)

  it('exits 1 when the requests in flight outlast the 10 s shutdown timeout', async () => {
    const server = await start()
    await holdARequest(server)
    const signal = Date.now()
    server.child.kill('SIGTERM')

    expect(await server.exited).toBe(1)
    const waited = Date.now() - signal
    expect(waited).toBeGreaterThanOrEqual(10_000)
    expect(waited).toBeLessThan(13_000)
    expect(server.logs.at(-1)).toMatchObject({ msg: 'shutdown took too long; stopping at once' })
  }, 40_000)
})

/** Whether a process with this id still runs. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('npm start', { timeout: 30_000 }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the server gracefully on %s sent to npm, and leaves nothing running',
    async (signal) => {
      const server = await startServerProcess(
        { DATABASE_URL: `sqlite:${join(tempDir('newswire-db-'), 'news.db')}` },
        NPM_START,
      )
      running.push(server)
      const serverPid = server.logs.find((entry) => typeof entry.pid === 'number')?.pid
      expect(serverPid).not.toBe(server.child.pid)
      try {
        server.child.kill(signal)
        await server.exited
        for (let waited = 0; isRunning(Number(serverPid)) && waited < 5_000; waited += 50) {
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        expect(isRunning(Number(serverPid))).toBe(false)
        expect(server.logs.map((entry) => entry.msg)).toContain('stopped')
      } finally {
        // Left running by a failure, it would outlive the suite.
        if (isRunning(Number(serverPid))) process.kill(Number(serverPid), 'SIGKILL')
      }
    },
  )
})
