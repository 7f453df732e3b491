import type { ComposedServer } from '@/composition/server/server.composition'
import {
  composeTestServer,
  JSON_HEADERS,
  describeOnDatabases,
  useDatabase,
  useServer,
} from './server-fixture'
import { startServerProcess, useServerProcesses } from './server-process'
import { listening } from './support/live-servers'
import { Scrape } from './support/metrics-scrape'
import { closeReaders, openReady, PATIENCE_MS } from './support/stream-reader'

afterEach(closeReaders)

const TOKEN = 'scrape-token-0123456789'
const BEARER = { authorization: `Bearer ${TOKEN}` }
const REQUESTS = 'newswire_http_request_duration_seconds'
const STATEMENTS = 'newswire_db_statement_duration_seconds'
const REFUSALS = 'newswire_budget_refusals_total'
const FIRST_PAGE = 'newswire_first_page_cache_lookups_total'
const STREAMS = 'newswire_live_streams'

describe('GET /metrics on the main port', () => {
  it('answers 404, as any unknown path, while neither METRICS_TOKEN nor METRICS_PORT is set', async () => {
    const server = await composeTestServer()
    const response = await server.app.inject({ url: '/metrics', headers: BEARER })
    await server.close()
    expect(response.statusCode).toBe(404)
    expect(response.body).not.toContain('newswire_')
  })

  it('answers 404 on the main port while only METRICS_PORT is set', async () => {
    const server = await composeTestServer({ METRICS_PORT: '0' })
    const response = await server.app.inject({ url: '/metrics', headers: BEARER })
    await server.close()
    expect(response.statusCode).toBe(404)
  })

  it('asks for the bearer token without it or with a wrong one (401), and serves the bearer', async () => {
    const server = await composeTestServer({ METRICS_TOKEN: TOKEN })
    const answers = await Promise.all(
      [{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Basic ${TOKEN}` }, BEARER].map(
        (headers) => server.app.inject({ url: '/metrics', headers }),
      ),
    )
    await server.close()
    expect(answers.map((answer) => answer.statusCode)).toEqual([401, 401, 401, 200])
    for (const refused of answers.slice(0, 3)) {
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"')
      expect(refused.body).not.toContain('newswire_')
    }
    const served = answers[3]
    expect(served?.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(served?.headers['cache-control']).toBe('no-store')
  })
})

describeOnDatabases('the metrics of a server on $name', (kind) => {
  const database = useDatabase(kind, { perTest: true })
  const env = { METRICS_TOKEN: TOKEN, WRITE_RATE_LIMIT: '1', SEARCH_RATE_LIMIT: '1' }
  const { server } = useServer({ database, env, perTest: true })
  afterEach(closeReaders)
  let base: string

  beforeEach(async () => {
    base = await listening(server)
  })

  async function scrape(): Promise<Scrape> {
    const response = await fetch(`${base}/metrics`, { headers: BEARER })
    expect(response.status).toBe(200)
    return Scrape.of(await response.text())
  }

  it('counts each request under its route pattern and status, with its time', async () => {
    const before = await scrape()
    await fetch(`${base}/api/news/no-such-post`)
    await fetch(`${base}/api/news/no-such-post-either`)
    await fetch(`${base}/api/news`)
    const after = await scrape()
    const item = { method: 'GET', route: '/api/news/:id', status: '404' }
    expect(after.count(REQUESTS, item) - before.count(REQUESTS, item)).toBe(2)
    const list = { method: 'GET', route: '/api/news', status: '200' }
    expect(after.count(REQUESTS, list) - before.count(REQUESTS, list)).toBe(1)
    expect(after.sum(REQUESTS, list)).toBeGreaterThan(0)
    // The raw URL is never a label: only route patterns are.
    const routes = after.labels(REQUESTS).map((labels) => labels.route)
    expect(routes.filter((route) => route?.includes('no-such-post'))).toEqual([])
  })

  it('times the database’s statements', async () => {
    const before = await scrape()
    await fetch(`${base}/api/news/no-such-post`)
    const after = await scrape()
    const selects = { kind: 'select', outcome: 'ok' }
    expect(after.count(STATEMENTS, selects)).toBeGreaterThan(before.count(STATEMENTS, selects))
    expect(after.sum(STATEMENTS, selects)).toBeGreaterThan(0)
  })

  it('counts the writes and the searches refused by the budget', async () => {
    const write = () =>
      fetch(`${base}/api/news`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ title: 'Title', body: 'Body', author: 'Ada' }),
      })
    expect((await write()).status).toBe(201)
    expect((await write()).status).toBe(429)
    expect((await fetch(`${base}/api/news?q=title`)).status).toBe(200)
    expect((await fetch(`${base}/api/news?q=title`)).status).toBe(429)
    expect((await fetch(`${base}/api/news?q=body`)).status).toBe(429)
    const after = await scrape()
    expect(after.value(REFUSALS, { budget: 'write' })).toBe(1)
    expect(after.value(REFUSALS, { budget: 'search' })).toBe(2)
  })

  it('counts the first page’s cache hits and misses', async () => {
    const before = await scrape()
    expect(before.value(FIRST_PAGE, { result: 'hit' })).toBe(0)
    await fetch(`${base}/api/news`)
    await fetch(`${base}/api/news`)
    await fetch(`${base}/api/news`)
    const after = await scrape()
    expect(
      after.value(FIRST_PAGE, { result: 'miss' }) - before.value(FIRST_PAGE, { result: 'miss' }),
    ).toBe(1)
    expect(after.value(FIRST_PAGE, { result: 'hit' })).toBe(2)
  })

  it('shows the live streams it holds open', async () => {
    expect((await scrape()).value(STREAMS)).toBe(0)
    const { reader } = await openReady(base)
    await openReady(base)
    expect((await scrape()).value(STREAMS)).toBe(2)
    reader.close()
    let open = 2
    for (const deadline = Date.now() + PATIENCE_MS; open !== 1 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      open = (await scrape()).value(STREAMS)
    }
    expect(open).toBe(1)
  })

  it('reports the process’s memory and event-loop delay', async () => {
    const scraped = await scrape()
    expect(scraped.value('process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(scraped.family('nodejs_eventloop_lag_p99_seconds').type).toBe('gauge')
    expect(scraped.family('nodejs_heap_size_used_bytes').type).toBe('gauge')
  })
})

describe('two servers in one process', () => {
  it('count each its own requests', async () => {
    const a = await composeTestServer({ METRICS_TOKEN: TOKEN })
    const b = await composeTestServer({ METRICS_TOKEN: TOKEN })
    try {
      await a.app.inject('/api/news')
      const list = { method: 'GET', route: '/api/news', status: '200' }
      const scrapeOf = async (server: ComposedServer) =>
        Scrape.of((await server.app.inject({ url: '/metrics', headers: BEARER })).body)
      expect((await scrapeOf(a)).count(REQUESTS, list)).toBe(1)
      expect((await scrapeOf(b)).count(REQUESTS, list)).toBe(0)
    } finally {
      await a.close()
      await b.close()
    }
  })
})

describe('METRICS_PORT', { timeout: 30_000 }, () => {
  const { start: startProcess } = useServerProcesses('SIGTERM')

  it('serves GET /metrics on 127.0.0.1 without a token, and stops with the server', async () => {
    const server = await startProcess({ DATABASE_URL: 'sqlite::memory:', METRICS_PORT: '0' })
    const line = server.logs.find((entry) => typeof entry.metricsUrl === 'string')
    const url = new URL(String(line?.metricsUrl))
    expect(url.hostname).toBe('127.0.0.1')
    expect(url.pathname).toBe('/metrics')

    await fetch(`${server.base}/api/news`)
    const response = await fetch(url)
    expect(response.status).toBe(200)
    const scraped = await Scrape.of(await response.text())
    expect(scraped.count(REQUESTS, { route: '/api/news', status: '200' })).toBe(1)
    expect((await fetch(new URL('/api/news', url))).status).toBe(404)
    expect((await fetch(`${server.base}/metrics`)).status).toBe(404)

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    await expect(fetch(url)).rejects.toThrow()
  })

  it('refuses to start, naming METRICS_PORT, when that port is taken', async () => {
    const taken = await startProcess({ DATABASE_URL: 'sqlite::memory:', METRICS_PORT: '0' })
    const port = new URL(
      String(taken.logs.find((entry) => typeof entry.metricsUrl === 'string')?.metricsUrl),
    ).port
    await expect(
      startServerProcess({ DATABASE_URL: 'sqlite::memory:', METRICS_PORT: port }),
    ).rejects.toThrow(`METRICS_PORT ${port} on 127.0.0.1 is already in use`)
  })
})
