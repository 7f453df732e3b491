import { randomBytes } from 'node:crypto'
import {
  startThrowawayPostgres,
  terminateBackends,
  throwawaySchema,
  withApplicationName,
  type ThrowawayPostgres,
  type ThrowawaySchema,
} from '../../scripts/bench/throwaway-postgres'
import { DETAILS, problem } from '@/server/services/problem'
import { TEST_POSTGRES_URL } from './server-fixture'
import { useServerProcesses, type ServerProcess } from './server-process'

/** Clients that write and read at once while the database drops their connections. */
const CLIENTS = 8
/** How many times the backends are terminated, or the cluster restarted, and how far apart. */
const DROPS = 5
const RESTARTS = 2
const BETWEEN_DROPS_MS = 250
/** How long the server may take to serve reads and writes again once the database is back. */
const HEAL_MS = 10_000

const { start: startProcess } = useServerProcesses()

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What the clients met: every answer must be a 2xx or the Unavailable problem. */
interface Seen {
  answers: number
  unavailable: number
  /** Anything else: another status, a 503 with another body, or a connection that failed. */
  readonly wrong: string[]
}

const UNAVAILABLE = JSON.stringify(problem(503, DETAILS.unavailable))

async function send(base: string, seen: Seen, path: string, init?: RequestInit): Promise<unknown> {
  try {
    const response = await fetch(`${base}${path}`, init)
    const text = await response.text()
    seen.answers += 1
    if (response.ok) return JSON.parse(text)
    if (response.status === 503 && text === UNAVAILABLE) seen.unavailable += 1
    else seen.wrong.push(`${init?.method ?? 'GET'} ${path}: ${response.status} ${text}`)
  } catch (error) {
    seen.wrong.push(`${init?.method ?? 'GET'} ${path}: ${String(error)}`)
  }
  return undefined
}

const JSON_HEADERS = { 'content-type': 'application/json' }

/** One client's round: publish a post, list the newest, read the post and edit it. */
async function round(base: string, seen: Seen, client: number, n: number): Promise<void> {
  const created = (await send(base, seen, '/api/news', {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ title: `Client ${client} post ${n}`, body: 'Kept.', author: 'Ada' }),
  })) as { _id?: string } | undefined
  await send(base, seen, '/api/news')
  if (created?._id === undefined) return
  await send(base, seen, `/api/news/${created._id}`)
  await send(base, seen, `/api/news/${created._id}`, {
    method: 'PATCH',
    headers: JSON_HEADERS,
    body: JSON.stringify({ body: `Edited ${n}.` }),
  })
}

/** Runs CLIENTS clients in a loop until `during` has resolved, then answers what they met. */
async function underLoad(base: string, during: () => Promise<void>): Promise<Seen> {
  const seen: Seen = { answers: 0, unavailable: 0, wrong: [] }
  let stopped = false
  const clients = Array.from({ length: CLIENTS }, async (_, client) => {
    for (let n = 0; !stopped; n += 1) await round(base, seen, client, n)
  })
  try {
    await during()
  } finally {
    stopped = true
    await Promise.all(clients)
  }
  return seen
}

/** Resolves once a read and a write both succeed again; rejects after HEAL_MS. */
async function healed(base: string): Promise<void> {
  const deadline = Date.now() + HEAL_MS
  for (;;) {
    const read = await fetch(`${base}/api/news`).catch(() => undefined)
    const write = await fetch(`${base}/api/news`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ title: 'After the storm', body: 'Kept.', author: 'Ada' }),
    }).catch(() => undefined)
    const health = await fetch(`${base}/api/health`).catch(() => undefined)
    if (read?.status === 200 && write?.status === 201 && health?.status === 200) return
    if (Date.now() > deadline) {
      throw new Error(`still failing: ${read?.status}, ${write?.status}, ${health?.status}`)
    }
    await pause(100)
  }
}

async function start(databaseUrl: string): Promise<ServerProcess> {
  // A budget no client reaches, so that each write also counts in the database (on a connection
  // of its own) and no answer is a 429.
  return startProcess({ DATABASE_URL: databaseUrl, WRITE_RATE_LIMIT: '1000000' })
}

/** Whether the process is still running, and if not, how it ended and what it logged last. */
async function fate(server: ServerProcess): Promise<string> {
  const code = await Promise.race([server.exited, pause(0).then(() => undefined)])
  if (code === undefined) return 'running'
  const last = server.logs.slice(-2).map((entry) => {
    const err = entry.err as { message?: unknown } | undefined
    return `${String(entry.msg)}${err === undefined ? '' : `: ${String(err.message)}`}`
  })
  return `exited (${code}) after ${last.join(' | ')}`
}

function expectSurvived(seen: Seen): void {
  expect(seen.wrong).toEqual([])
  expect(seen.answers).toBeGreaterThan(0)
}

if (TEST_POSTGRES_URL === undefined) {
  it.skip('PostgreSQL: SKIPPED because TEST_POSTGRES_URL is not set (scripts/ci-postgres.sh)')
} else {
  const adminUrl = TEST_POSTGRES_URL

  describe('a PostgreSQL that drops the server’s connections', () => {
    let schema: ThrowawaySchema | undefined

    afterEach(async () => {
      await schema?.drop()
      schema = undefined
    })

    it('answers 2xx or 503 while its backends are terminated under load, stays up and heals', async () => {
      schema = await throwawaySchema(adminUrl, 'newswire_drops')
      // Its own name, so that only this server's backends are terminated.
      const name = `newswire_drops_${randomBytes(6).toString('hex')}`
      const server = await start(withApplicationName(schema.url, name))
      let terminated = 0

      const seen = await underLoad(server.base, async () => {
        for (let drop = 0; drop < DROPS; drop += 1) {
          await pause(BETWEEN_DROPS_MS)
          terminated += await terminateBackends(adminUrl, name)
        }
        await pause(BETWEEN_DROPS_MS)
      })

      expect(await fate(server)).toBe('running')
      expect(terminated).toBeGreaterThan(0)
      expectSurvived(seen)
      await healed(server.base)
      expect(await fate(server)).toBe('running')
    }, 60_000)
  })

  describe('a PostgreSQL that restarts', () => {
    let cluster: ThrowawayPostgres | undefined

    afterEach(async () => {
      await cluster?.stop()
      cluster = undefined
    })

    it('answers 2xx or 503 while the database restarts under load, stays up and heals', async () => {
      cluster = await startThrowawayPostgres()
      const restarting = cluster
      const server = await start(restarting.url)

      const seen = await underLoad(server.base, async () => {
        for (let restart = 0; restart < RESTARTS; restart += 1) {
          await pause(BETWEEN_DROPS_MS * 2)
          await restarting.restart()
        }
        await pause(BETWEEN_DROPS_MS * 2)
      })

      expect(await fate(server)).toBe('running')
      expectSurvived(seen)
      await healed(server.base)
      expect(await fate(server)).toBe('running')
    }, 90_000)
  })
}
