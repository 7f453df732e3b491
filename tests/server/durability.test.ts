import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import type { NewsItem } from '@/domain/news-item.entity'
import { removeTempDirs, tempDir } from './server-fixture'
import { startServerProcess, type ServerProcess } from './server-process'

const running: ServerProcess[] = []

afterEach(() => {
  for (const server of running.splice(0)) server.child.kill('SIGKILL')
})
afterAll(removeTempDirs)

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env)
  running.push(server)
  return server
}

function logged(server: ServerProcess, message: string): boolean {
  return server.logs.some((entry) => entry.msg === message)
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10))
}

describe('the server process', () => {
  it('keeps every answered write across a SIGKILL', async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(tempDir('newswire-db-'), 'news.db')}`,
      WRITE_RATE_LIMIT: '0',
    }
    const first = await start(env)

    // Five waves of ten concurrent writes, so that commits overlap.
    const answered: NewsItem[] = []
    for (let wave = 0; wave < 5; wave += 1) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          fetch(`${first.base}/api/news`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ title: `Post ${wave}-${i}`, body: 'Kept.', author: 'Ada' }),
          }),
        ),
      )
      for (const response of responses) {
        if (response.status === 201) answered.push((await response.json()) as NewsItem)
      }
    }
    expect(answered).toHaveLength(50)
    first.child.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')

    const second = await start(env)
    for (const item of answered) {
      const response = await fetch(`${second.base}/api/news/${item._id}`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual(item)
    }
    const listed = (await (await fetch(`${second.base}/api/news?limit=100`)).json()) as NewsItem[]
    expect(listed).toHaveLength(50)
  }, 60_000)

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'finishes a request in flight, then stops cleanly on %s',
    async (signal) => {
      const env = { DATABASE_URL: `sqlite:${join(tempDir('newswire-db-'), 'news.db')}` }
      const server = await start(env)
      const body = JSON.stringify({ title: 'Late', body: 'Sent across a shutdown.', author: 'Ada' })

      // Half a request: the server has begun it (its 100 Continue says so), and waits for the body.
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = httpRequest(`${server.base}/api/news`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            expect: '100-continue',
          },
        })
        request.on('response', (response) => {
          let text = ''
          response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
        })
        request.on('error', reject)
        request.once('continue', () => {
          server.child.kill(signal)
          void until(() => logged(server, 'shutting down: finishing the requests in flight')).then(
            () => request.end(body),
          )
        })
        request.flushHeaders()
      })

      const { status, text } = await answer
      expect(status).toBe(201)
      expect(JSON.parse(text)).toMatchObject({ title: 'Late' })
      expect(await server.exited).toBe(0)
      expect(server.logs.at(-1)?.msg).toBe('stopped')

      const again = await start(env)
      const listed = (await (await fetch(`${again.base}/api/news`)).json()) as NewsItem[]
      expect(listed.map((item) => item.title)).toEqual(['Late'])
    },
    30_000,
  )

  it('refuses to start with a clear message for a bad setting', async () => {
    await expect(start({ PORT: 'eighty', DATABASE_URL: 'sqlite::memory:' })).rejects.toThrow(
      /PORT must be a whole number from 0 to 65535, got "eighty"/,
    )
  }, 30_000)
})
