import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import { tempDir } from './server-fixture'
import { useServerProcesses, type ServerProcess } from './server-process'

const { start } = useServerProcesses()

function logged(server: ServerProcess, message: string): boolean {
  return server.logs.some((entry) => entry.msg === message)
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10))
}

describe('the server process', () => {
  it('keeps every answered write, and its revision, across a SIGKILL', async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(tempDir('newswire-db-'), 'news.db')}`,
      WRITE_RATE_LIMIT: '0',
    }
    const first = await start(env)
    const send = (method: string, path: string, body?: object) =>
      fetch(`${first.base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })

    // Per post: how many of its writes the server acknowledged, and the last answer for it.
    const acknowledged = new Map<string, number>()
    const latest = new Map<string, NewsItem | 'trashed'>()
    const acknowledge = (id: string, answer: NewsItem | 'trashed') => {
      acknowledged.set(id, (acknowledged.get(id) ?? 0) + 1)
      latest.set(id, answer)
    }

    // Waves of ten concurrent writes, so that commits overlap: creates, then edits of every
    // post, then a second edit of some and the deletion of others.
    for (let wave = 0; wave < 5; wave += 1) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          send('POST', '/api/news', { title: `Post ${wave}-${i}`, body: 'Kept.', author: 'Ada' }),
        ),
      )
      for (const response of responses) {
        if (response.status !== 201) continue
        const item = (await response.json()) as NewsItem
        acknowledge(item._id, item)
      }
    }
    const ids = [...acknowledged.keys()]
    expect(ids).toHaveLength(50)
    for (let from = 0; from < ids.length; from += 10) {
      const wave = ids.slice(from, from + 10)
      const responses = await Promise.all(
        wave.map((id, i) => send('PATCH', `/api/news/${id}`, { body: `Edited ${from + i}.` })),
      )
      for (const response of responses) {
        if (response.status !== 200) continue
        const item = (await response.json()) as NewsItem
        acknowledge(item._id, item)
      }
    }
    const last = await Promise.all(
      ids.slice(0, 20).map(async (id, i) => {
        if (i % 2 === 0) return { id, response: await send('DELETE', `/api/news/${id}`) }
        return { id, response: await send('PATCH', `/api/news/${id}`, { title: `Again ${i}` }) }
      }),
    )
    for (const { id, response } of last) {
      if (response.status === 204) acknowledge(id, 'trashed')
      if (response.status === 200) acknowledge(id, (await response.json()) as NewsItem)
    }
    // Every write was answered: 50 creates, 50 edits, then 10 deletions and 10 edits.
    expect([...acknowledged.values()].reduce((sum, n) => sum + n, 0)).toBe(120)
    first.child.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')

    const second = await start(env)
    let trashedCount = 0
    for (const id of ids) {
      const writes = acknowledged.get(id) ?? 0
      const answer = latest.get(id)
      const history = (await (
        await fetch(`${second.base}/api/news/${id}/revisions`)
      ).json()) as NewsRevision[]
      // Every acknowledged write left its revision, numbered in order, and no other.
      expect(history.map((revision) => revision.revision)).toEqual(
        Array.from({ length: writes }, (_, i) => writes - i),
      )
      const response = await fetch(`${second.base}/api/news/${id}`)
      if (answer === 'trashed') {
        trashedCount += 1
        expect(response.status).toBe(404)
        expect(history[0]?.action).toBe('delete')
      } else {
        expect(response.status).toBe(200)
        expect(await response.json()).toEqual(answer)
        expect(history[0]).toMatchObject({ title: answer?.title, body: answer?.body })
      }
    }
    expect(trashedCount).toBe(10)
    const listed = (await (await fetch(`${second.base}/api/news?limit=100`)).json()) as NewsItem[]
    expect(listed).toHaveLength(40)
    const trash = (await (await fetch(`${second.base}/api/trash?limit=100`)).json()) as NewsItem[]
    expect(trash).toHaveLength(10)
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
