import { OPERATOR } from '@/domain/editor'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'
import { ChangeFeed } from '@/application/change-feed'
import { created } from '@/domain/rules/news-history.rules'
import type { StreamLeases } from '@/application/ports/stream-leases.port'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import { ChangeWatcher } from '@/server/services/change-watcher'
import { EventStream } from '@/server/services/event-stream'
import { waitUntil } from './support/stream-reader'

const STREAMS = 300

/** Leases that always have room: the watcher only renews and releases them. */
const roomyLeases: StreamLeases = {
  acquire: async () => ({ taken: true, id: 'lease' }),
  renew: async () => undefined,
  release: async () => undefined,
}

const silent = {
  warn: () => undefined,
  error: () => undefined,
} as unknown as FastifyBaseLogger

describe('the change watcher', () => {
  let server: Server
  let watcher: ChangeWatcher

  afterEach(async () => {
    await watcher.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('hands a change to many streams over several turns of the event loop, so that requests are served in between', async () => {
    const store = new MemoryNewsStore()
    const feed = new ChangeFeed(store)
    watcher = new ChangeWatcher(
      store,
      feed,
      roomyLeases,
      { pollMs: 10, heartbeatMs: 60_000 },
      silent,
    )
    /** The streams that have been handed something since `ready`, in the order they were. */
    const handed = new Set<EventStream>()
    let handedAtNextTurn: number | undefined
    server = createServer((_request, response) => {
      const stream = new EventStream(response, 1024 * 1024)
      response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' })
      stream.body.pipe(response)
      void watcher
        .join(stream, async () => undefined)
        .then(async () => {
          const start = await feed.start()
          if (start.ok) stream.open(start.value)
          stream.body.on('data', (chunk: Buffer) => {
            if (!chunk.toString('utf8').includes('event: change')) return
            if (handed.size === 0) setImmediate(() => (handedAtNextTurn = handed.size))
            handed.add(stream)
          })
        })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    let ready = 0
    for (let index = 0; index < STREAMS; index += 1) {
      const outgoing = httpRequest({ host: '127.0.0.1', port, path: '/', agent: false })
      outgoing.on('error', () => undefined)
      outgoing.on('response', (response) => {
        response.setEncoding('utf8')
        response.once('data', () => (ready += 1))
        response.on('error', () => undefined)
      })
      outgoing.end()
    }
    await waitUntil(
      () => ready === STREAMS,
      () => `${STREAMS} streams, got ${ready}`,
    )

    await store.transaction(async (tx) => {
      const change = created(
        tx.newId(),
        { title: 'News', body: 'B', author: 'A' },
        {
          now: new Date(),
          editor: OPERATOR,
        },
      )
      await tx.insert(change.item)
      await tx.appendRevision(change.item._id, change.revision)
    })
    await waitUntil(
      () => handed.size === STREAMS,
      () => `the change on every stream, got ${handed.size}`,
    )
    await new Promise((resolve) => setImmediate(resolve))
    // A request that arrived meanwhile would have been read at that turn, before the rest.
    expect(handedAtNextTurn).toBeLessThan(STREAMS)
  })
})
