import {
  logCapture,
  memoryUseCases,
  describeOnDatabases,
  useDatabase,
  useServer,
  memoryApp,
} from './server-fixture'
import { useServerProcesses, type ServerProcess } from './server-process'
import { openReady, waitUntil } from './support/stream-reader'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ISO_8601_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const INFO = 30
const DEBUG = 20

describeOnDatabases('request ids on $name', (kind) => {
  const log = logCapture()
  const database = useDatabase(kind)
  const { server } = useServer({
    database,
    options: { logger: { level: 'info', stream: log.stream } },
  })

  it('answers with the X-Request-Id it was sent, and logs the request under it', async () => {
    const response = await server.app.inject({
      url: '/api/news',
      headers: { 'x-request-id': 'edge-7f3a:42_b.1' },
    })
    expect(response.headers['x-request-id']).toBe('edge-7f3a:42_b.1')
    const lines = log.lines().filter((line) => line.reqId === 'edge-7f3a:42_b.1')
    expect(lines.map((line) => line.msg)).toEqual(['request completed'])
  })

  it('replaces an X-Request-Id that is too long or holds unsafe characters with a new one', async () => {
    for (const unsafe of ['a'.repeat(65), 'two words', 'quote"d', 'new\tline', '']) {
      const response = await server.app.inject({
        url: '/api/news',
        headers: { 'x-request-id': unsafe },
      })
      expect(response.headers['x-request-id'], JSON.stringify(unsafe)).toMatch(UUID)
    }
  })

  it('gives every answer an id of its own, a 404 and a refused URL included', async () => {
    const answers = await Promise.all(
      ['/api/news', '/api/nothing-here', '/api/news/%E0%A4%A'].map((url) => server.app.inject(url)),
    )
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 404, 400])
    const ids = answers.map((answer) => String(answer.headers['x-request-id']))
    for (const id of ids) expect(id).toMatch(UUID)
    expect(new Set(ids).size).toBe(3)
  })
})

describe('a failure', () => {
  it('is logged once, at error, with its request id', async () => {
    const useCases = memoryUseCases()
    vi.spyOn(useCases.listNews, 'execute').mockRejectedValue(new Error('the disk caught fire'))
    const failing = logCapture()
    const app = await memoryApp({
      useCases,
      logger: { level: 'info', stream: failing.stream },
    })
    const response = await app.inject({ url: '/api/news', headers: { 'x-request-id': 'fire-1' } })
    await app.close()
    expect(response.statusCode).toBe(500)
    expect(response.headers['x-request-id']).toBe('fire-1')
    const errors = failing.lines().filter((line) => Number(line.level) >= 50)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ reqId: 'fire-1', err: { message: 'the disk caught fire' } })
  })
})

/**
 * Opens a live stream with `id` and lets it go, as a closed tab does; then makes a request with
 * `id`-after and waits for its log line, by when the stream's end has long been seen.
 */
async function readAndLeave(server: ServerProcess, id: string): Promise<void> {
  const { reader } = await openReady(server.base, { headers: { 'x-request-id': id } })
  reader.close()
  await reader.ended
  await new Promise((resolve) => setTimeout(resolve, 300))
  await fetch(`${server.base}/api/news`, { headers: { 'x-request-id': `${id}-after` } })
  await waitUntil(
    () => server.logs.some((line) => line.reqId === `${id}-after`),
    () => `the next request's line, got ${JSON.stringify(server.logs)}`,
  )
}

/** A server process starts from its sources in a few seconds on a busy machine. */
const PROCESS_TIMEOUT_MS = 30_000

describe('the server process’s log', { timeout: PROCESS_TIMEOUT_MS }, () => {
  const { start: startProcess } = useServerProcesses('SIGTERM')

  it('writes one JSON object per line, with ISO 8601 times and LOG_LEVEL’s lines', async () => {
    const server = await startProcess({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'debug' })
    const response = await fetch(`${server.base}/api/news`, {
      headers: { 'x-request-id': 'process-1' },
    })
    expect(response.headers.get('x-request-id')).toBe('process-1')
    await readAndLeave(server, 'reader-1')
    for (const line of server.logs) {
      expect(String(line.time)).toMatch(ISO_8601_UTC)
      expect(typeof line.level).toBe('number')
    }
    expect(server.logs.find((line) => line.reqId === 'process-1')).toMatchObject({
      level: INFO,
      msg: 'request completed',
      res: { statusCode: 200 },
    })
    // At debug, the end of a stream is told.
    expect(
      server.logs.filter((line) => line.reqId === 'reader-1' && line.level === DEBUG),
    ).not.toEqual([])
  })

  it('tells nothing at info of a live stream its reader left', async () => {
    const server = await startProcess({ DATABASE_URL: 'sqlite::memory:' })
    await readAndLeave(server, 'reader-2')
    expect(server.logs.filter((line) => line.reqId === 'reader-2')).toEqual([])
  })
})
